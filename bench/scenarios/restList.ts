/** Scenario 1: the legacy client's ticket list, `GET /api/tickets/` for an agent with 50 tickets. */
import { baseNote, check, failures, paired, ratioTo, rows, spreadOverBusyAgents, statementsOf, withFailures, type Workspace } from '../context.js';
import type { LoadResult, LoadSpec } from '../lib.js';

/** The list's answer: the agent's 50 tickets. */
const fiftyTickets = (what: string) => (b: unknown) => {
  if (!Array.isArray(b) || b.length !== 50) throw new Error(`${what}: expected 50 tickets, got ${(b as unknown[] | undefined)?.length}`);
};

/** A list row of the table, against the REST list's budget. */
function listRow(scenario: string, r: LoadResult, base: LoadResult, detail: string): void {
  rows.push({
    scenario,
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    ratio: ratioTo(r, base),
    budget: 'ratio ≥ 0.05, p99 < 25 ms',
    met: ratioTo(r, base) >= 0.05 && r.p99 < 25 && !failures(r),
    note: withFailures(r, `${detail}; ${baseNote(base)}`),
  });
}

export async function restList(ws: Workspace): Promise<void> {
  const { gw, demo } = ws;
  const spec: LoadSpec = { url: `${gw.url}/api/tickets/`, headers: { cookie: demo } };
  await check(spec, fiftyTickets('REST list'));
  const statements = await statementsOf(gw, () => fetch(spec.url, { headers: spec.headers }).then((r) => r.text()));
  const [r, base] = await paired(ws, '1. REST GET /api/tickets/ (50 tickets)', spec);
  listRow('1. REST `GET /api/tickets/`, agent with 50 tickets', r, base, `${statements.length} SQL statements per request`);
}

/** 1m. The same list with the load spread over a team of agents with 50 tickets each, each request a different agent's. */
export async function restListManyAgents(ws: Workspace): Promise<void> {
  const spread = spreadOverBusyAgents(ws, (cookie) => ({ cookie }));
  if (!spread) return;
  const spec: LoadSpec = { url: `${ws.gw.url}/api/tickets/`, ...spread };
  await check({ ...spec, headers: spread.requests[0].headers }, fiftyTickets('REST list (many agents)'));
  const [r, base] = await paired(ws, `1m. REST GET /api/tickets/ over ${spread.requests.length} agents`, spec);
  listRow(
    `1m. REST \`GET /api/tickets/\`, the load spread over ${spread.requests.length} signed-in agents of 50 tickets each`,
    r,
    base,
    `one agent after another, request n by agent n mod ${spread.requests.length}`,
  );
}
