/**
 * Scenario 3: writes under load. 3a ticket creation through GraphQL (multipart, with the required image), 3b through
 * REST (no image), 3c a GraphQL `sendMessage` between two demo agents. Each is checked once before it is timed, and
 * every GraphQL answer of the load is checked too (bench/load.mjs): an answer with `errors` is a failed request.
 */
import { WRITE_CONNECTIONS, baseNote, check, failures, gqlHeaders, paired, ratioTo, rows, withFailures, type Workspace } from '../context.js';
import type { LoadSpec } from '../lib.js';
import { TINY_PNG } from '../seed.js';

/** The demo agent (the receiver of 3c) and Marnie (every write's author). */
const DEMO_ID = 1;
const MARNIE_ID = 2;

export async function writes(ws: Workspace): Promise<void> {
  const { gw, demo, marnie, customerIds } = ws;
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
    query: 'mutation($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id image { id } } }',
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
    if (!b.data?.createTicket?.id || !b.data.createTicket.image?.id) throw new Error('createTicket: no id or no image');
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
    budget: 'ratio ≥ 0.015',
    met: ratioTo(r, base) >= 0.015 && !failures(r),
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
      assignee: MARNIE_ID,
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
    budget: 'ratio ≥ 0.015',
    met: ratioTo(rr, base2) >= 0.015 && !failures(rr),
    note: withFailures(rr, baseNote(base2)),
  });

  // 3c: Marnie writes to the demo agent; the check reads the message back from the receiver's side.
  const text = 'Hello from the benchmark.';
  const sendSpec: LoadSpec = {
    url: `${gw.url}/graphql`,
    method: 'POST',
    headers: gqlHeaders(marnie),
    body: JSON.stringify({
      query: 'mutation($to: Int!, $text: String!) { sendMessage(receiverId: $to, text: $text) { id senderId receiverId } }',
      variables: { to: DEMO_ID, text },
    }),
  };
  const sent = await check(sendSpec, (b) => {
    const m = b.data?.sendMessage;
    if (!m?.id || m.senderId !== MARNIE_ID || m.receiverId !== DEMO_ID) throw new Error('sendMessage: no id, or the wrong sender or receiver');
  });
  await check(
    {
      url: `${gw.url}/graphql`,
      method: 'POST',
      headers: gqlHeaders(demo),
      body: JSON.stringify({ query: `{ messages(withUserId: ${MARNIE_ID}, first: 1) { nodes { id text } } }` }),
    },
    (b) => {
      const [newest] = b.data.messages.nodes;
      if (newest?.id !== sent.data.sendMessage.id || newest.text !== text)
        throw new Error("sendMessage: the receiver's conversation does not show the message");
    },
  );
  const [rm, base3] = await paired(ws, `3c. GraphQL sendMessage, ${WRITE_CONNECTIONS} connections`, { ...sendSpec, connections: WRITE_CONNECTIONS });
  rows.push({
    scenario: `3c. Write: GraphQL \`sendMessage\` (Marnie → the demo agent), ${WRITE_CONNECTIONS} connections`,
    rps: rm.rps,
    p50: rm.p50,
    p99: rm.p99,
    ratio: ratioTo(rm, base3),
    budget: 'ratio ≥ 0.015',
    met: ratioTo(rm, base3) >= 0.015 && !failures(rm),
    note: withFailures(rm, `checked from the receiver's side (the newest message of the conversation); ${baseNote(base3)}`),
  });
}
