/** Scenario 1: the legacy client's ticket list, `GET /api/tickets/` for an agent with 50 tickets. */
import { baseNote, check, failures, paired, ratioTo, rows, spreadOverBusyAgents, statementsOf, withFailures, type Workspace } from '../context.js';
import type { LoadSpec } from '../lib.js';

export async function restList(ws: Workspace): Promise<void> {
  const { gw, demo } = ws;
  const spec: LoadSpec = { url: `${gw.url}/api/tickets/`, headers: { cookie: demo } };
  await check(spec, (b) => {
    if (!Array.isArray(b) || b.length !== 50) throw new Error(`REST list: expected 50 tickets, got ${b?.length}`);
  });
  const statements = await statementsOf(gw, () => fetch(spec.url, { headers: spec.headers }).then((r) => r.text()));
  const [r, base] = await paired(ws, '1. REST GET /api/tickets/ (50 tickets)', spec);
  rows.push({
    scenario: '1. REST `GET /api/tickets/`, agent with 50 tickets',
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    ratio: ratioTo(r, base),
    budget: 'ratio ≥ 0.05, p99 < 25 ms',
    met: ratioTo(r, base) >= 0.05 && r.p99 < 25 && !failures(r),
    note: withFailures(r, `${statements.length} SQL statements per request; ${baseNote(base)}`),
  });
}

/** 1m. The same list with the load spread over a team of agents with 50 tickets each, each request a different agent's. */
export async function restListManyAgents(ws: Workspace): Promise<void> {
  const spread = spreadOverBusyAgents(ws, (cookie) => ({ cookie }));
  if (!spread) return;
  const spec: LoadSpec = { url: `${ws.gw.url}/api/tickets/`, ...spread };
  await check({ ...spec, headers: spread.requests[0].headers }, (b) => {
    if (!Array.isArray(b) || b.length !== 50) throw new Error(`REST list (many agents): expected 50 tickets, got ${b?.length}`);
  });
  const [r, base] = await paired(ws, `1m. REST GET /api/tickets/ over ${spread.requests.length} agents`, spec);
  rows.push({
    scenario: `1m. REST \`GET /api/tickets/\`, the load spread over ${spread.requests.length} signed-in agents of 50 tickets each`,
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    ratio: ratioTo(r, base),
    budget: 'ratio ≥ 0.05, p99 < 25 ms',
    met: ratioTo(r, base) >= 0.05 && r.p99 < 25 && !failures(r),
    note: withFailures(r, `one agent after another, request n by agent n mod ${spread.requests.length}; ${baseNote(base)}`),
  });
}
