/** Scenario 3: ticket creation under load, through GraphQL (multipart, with the required image) and REST. */
import { WRITE_CONNECTIONS, baseNote, check, gqlHeaders, paired, ratioTo, rows, withFailures, type Workspace } from '../context.js';
import type { LoadSpec } from '../lib.js';
import { TINY_PNG } from '../seed.js';

export async function writes(ws: Workspace): Promise<void> {
  const { gw, marnie, customerIds } = ws;
  const ticketInput = {
    title: 'Bench write',
    type: 'Incident',
    priority: 'High',
    requesterId: customerIds[0],
    macroId: 1,
    description: 'Created by the benchmark.',
  };
  // GraphQL requires the image on create ("Image is Required"): the smallest valid PNG, multipart.
  const boundary = '----fulcrumbench';
  const operations = JSON.stringify({
    query: 'mutation($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
    variables: { input: ticketInput, image: null },
  });
  const multipart = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.image"]}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`),
    TINY_PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const gqlSpec: LoadSpec = {
    url: `${gw.url}/graphql`,
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'apollo-require-preflight': 'true', cookie: marnie },
    body: multipart,
  };
  await check(gqlSpec, (b) => {
    if (!b.data?.createTicket?.id) throw new Error('createTicket: no id');
  });
  const withoutImage = { query: 'mutation($input: TicketInput!) { createTicket(input: $input) { id } }', variables: { input: ticketInput } };
  const refused = await fetch(`${gw.url}/graphql`, { method: 'POST', headers: gqlHeaders(marnie), body: JSON.stringify(withoutImage) }).then((r) => r.json());
  const imageRequired = JSON.stringify(refused.errors ?? '').includes('Image is Required');
  const [r, base] = await paired(ws, `3a. GraphQL createTicket (1x1 PNG), ${WRITE_CONNECTIONS} connections`, { ...gqlSpec, connections: WRITE_CONNECTIONS });
  rows.push({
    scenario: `3a. Write: GraphQL \`createTicket\` (multipart, 1×1 PNG: the image is required), ${WRITE_CONNECTIONS} connections`,
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    ratio: ratioTo(r, base),
    budget: 'report',
    met: null,
    note: withFailures(
      r,
      `${imageRequired ? 'without an image GraphQL answers "Image is Required", so the write carries the smallest PNG; ' : ''}${baseNote(base)}`,
    ),
  });
  const restSpec: LoadSpec = {
    url: `${gw.url}/api/tickets/create`,
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: marnie },
    body: JSON.stringify({
      title: 'Bench write',
      type: 'Incident',
      priority: 'High',
      assignee: 2,
      requester: customerIds[0],
      apply_macro: 1,
      description: 'Created by the benchmark.',
    }),
  };
  await check(restSpec, (b) => {
    if (!b.id) throw new Error('REST create: no id');
  });
  const [rr, base2] = await paired(ws, `3b. REST create ticket without image, ${WRITE_CONNECTIONS} connections`, {
    ...restSpec,
    connections: WRITE_CONNECTIONS,
  });
  rows.push({
    scenario: `3b. Write: REST \`POST /api/tickets/create\`, no image, ${WRITE_CONNECTIONS} connections`,
    rps: rr.rps,
    p50: rr.p50,
    p99: rr.p99,
    ratio: ratioTo(rr, base2),
    budget: 'report',
    met: null,
    note: withFailures(rr, baseNote(base2)),
  });
}
