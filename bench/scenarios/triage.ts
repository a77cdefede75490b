/**
 * Part of scenario 4 (scale.ts), triage at scale: the seeded tickets' text, status, type and priority, the search words the bench
 * asks for, and the GraphQL request of the searched and filtered dashboard. Used by the scale scenario.
 *
 * The text: titles and descriptions drawn from a 2,000-word vocabulary with a Zipf-like spread (a few words in
 * many tickets, most in few), as real tickets are. The bench's one-word query is a word in about 0.5% of the
 * tickets, the two-word query two words of about 3% each (together in about 0.1%); a frequent word (about 5%)
 * is measured beside them, without a budget, to show what a poor query costs.
 */
import type { Db } from '../seed.js';
import type { LoadResult, LoadSpec } from '../lib.js';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pu', 'ba', 'de', 'fi', 'go'];
/** The i-th pronounceable made-up word (three syllables; distinct for every i). */
export function madeUpWord(i: number): string {
  const a = SYLLABLES[i % 14];
  const b = SYLLABLES[Math.floor(i / 14) % 14];
  const c = SYLLABLES[Math.floor(i / 196) % 14];
  return `${a}${b}${c}${i >= 2744 ? 'x'.repeat(Math.floor(i / 2744)) : ''}`;
}

/** 2,000 pronounceable made-up words (no English word, so no query collides with the fixed seed text). */
export const VOCABULARY: string[] = Array.from({ length: 2000 }, (_, i) => madeUpWord(i));

const STATUSES = ['OPEN', 'PENDING', 'SOLVED'] as const;
const TYPES = ['Question', 'Incident', 'Problem', 'Task'] as const;
const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;

export interface SeededTicket {
  title: string;
  description: string;
  status: string;
  type: string;
  priority: string;
}

/** Ticket `i`'s fields from the seed's own PRNG: a quarter open, a tenth pending, the rest solved. */
export function seededTicket(i: number, random: () => number): SeededTicket {
  const word = () => VOCABULARY[Math.floor(VOCABULARY.length * Math.pow(random(), 2))];
  const r = random();
  return {
    title: `Bench ticket ${i} ${word()} ${word()}`.slice(0, 40),
    description: `Seeded for the benchmark, row ${i}: ${Array.from({ length: 8 }, word).join(' ')}. The printer shows an error after the update.`,
    status: STATUSES[r < 0.25 ? 0 : r < 0.35 ? 1 : 2],
    type: TYPES[Math.floor(random() * 4)],
    priority: PRIORITIES[Math.floor(random() * 4)],
  };
}

/** The FTS5 query of the agent's tickets whose own texts hold every word (as services/ticketSearch.ts asks it). */
export function ownMatchQuery(agentId: number, words: string[]): string {
  return `agent : "a${agentId}" AND {title description requester} : (${words.map((w) => `"${w}"*`).join(' AND ')})`;
}

function matches(db: Db, agentId: number, words: string[]): number {
  return Number((db.prepare('select count(*) as n from ticket_search where ticket_search match ?').get(ownMatchQuery(agentId, words)) as { n: number }).n);
}

/** Draws of a vocabulary word per seeded ticket (2 in the title, 8 in the description; see seededTicket). */
const DRAWS = 10;

/** The share of seeded tickets that hold vocabulary word k (word index = floor(N * u^2), u uniform). */
export function wordShare(k: number): number {
  const n = VOCABULARY.length;
  const perDraw = Math.sqrt((k + 1) / n) - Math.sqrt(k / n);
  return 1 - Math.pow(1 - perDraw, DRAWS);
}

const wordWithShare = (share: number) => VOCABULARY[VOCABULARY.findIndex((_, k) => wordShare(k) <= share)];

/**
 * The bench's queries, fixed by the seed's distribution (so every scale point asks the same): one word in about
 * 0.5% of tickets; two words of about 3% each (together in about 0.1%); a frequent word in about 5%.
 */
export const SEARCH_TERMS = { one: wordWithShare(0.005), two: `${wordWithShare(0.03)} ${wordWithShare(0.028)}`, frequent: wordWithShare(0.05) };

/** How many of the agent's tickets a query matches, read from the index (for the table's notes). */
export function matchCount(db: Db, agentId: number, search: string): number {
  return matches(db, agentId, search.split(' '));
}

/** The dashboard's own query (web/src/tickets/DashboardPage.tsx) with the row fragment's fields. */
const TRIAGE = `query Triage($first: Int!, $filter: TicketFilter, $orderBy: TicketOrder) {
  tickets(first: $first, filter: $filter, orderBy: $orderBy) {
    totalCount
    statusCounts { open pending solved }
    nodes { id title type priority status requesterId updatedAt requester { id name } image { id url } searchMatch { in snippet highlights { start length } } }
    pageInfo { endCursor hasNextPage }
  }
}`;

export const FILTER_ONLY = { status: ['OPEN', 'PENDING'], priority: ['High', 'Urgent'] };

export function triageSpec(url: string, cookie: string, filter: Record<string, unknown>, orderBy: string | null = null): LoadSpec {
  return {
    url: `${url}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query: TRIAGE, variables: { first: 50, filter, orderBy } }),
  };
}

export interface TriagePoint {
  total: number;
  agentTickets: number;
  /** Baseline req/s measured just before this scale point (the rows' ratio). */
  baseRps: number;
  filterOnly: LoadResult;
  one: LoadResult;
  two: LoadResult;
  frequent: LoadResult;
  /** Tickets of the agent each query matches. */
  matched: { filterOnly: number; one: number; two: number; frequent: number };
}

type Measure = (label: string, spec: LoadSpec) => Promise<LoadResult>;
type Check = (spec: LoadSpec, validate: (body: { data: { tickets: { totalCount: number; nodes: unknown[] } } }) => void) => Promise<unknown>;

/**
 * At one scale point, for one agent: the filter-only first page (unsolved, High or Urgent) and the three searches,
 * each checked first (no error, the total the index holds), then timed one request at a time.
 */
export async function measureTriage(
  o: {
    url: string;
    cookie: string;
    seconds: number;
    total: number;
    agentTickets: number;
    baseRps: number;
    matched: { one: number; two: number; frequent: number };
  },
  latency: Measure,
  check: Check,
): Promise<TriagePoint> {
  const label = (what: string) => `4. ${o.total.toLocaleString('en-US')} tickets, ${what}, agent with ${o.agentTickets.toLocaleString('en-US')}`;
  const specs = {
    filterOnly: { ...triageSpec(o.url, o.cookie, FILTER_ONLY), seconds: o.seconds },
    one: { ...triageSpec(o.url, o.cookie, { search: SEARCH_TERMS.one }), seconds: o.seconds },
    two: { ...triageSpec(o.url, o.cookie, { search: SEARCH_TERMS.two }), seconds: o.seconds },
    frequent: { ...triageSpec(o.url, o.cookie, { search: SEARCH_TERMS.frequent }), seconds: o.seconds },
  };
  let filterOnlyTotal = 0;
  await check(specs.filterOnly, (b) => void (filterOnlyTotal = b.data.tickets.totalCount));
  for (const key of ['one', 'two', 'frequent'] as const) {
    await check(specs[key], (b) => {
      if (b.data.tickets.totalCount !== o.matched[key])
        throw new Error(`triage: "${SEARCH_TERMS[key]}" found ${b.data.tickets.totalCount}, the index holds ${o.matched[key]}`);
    });
  }
  return {
    total: o.total,
    agentTickets: o.agentTickets,
    baseRps: o.baseRps,
    filterOnly: await latency(label('filter-only first page'), specs.filterOnly),
    one: await latency(label(`search "${SEARCH_TERMS.one}"`), specs.one),
    two: await latency(label(`search "${SEARCH_TERMS.two}"`), specs.two),
    frequent: await latency(label(`search "${SEARCH_TERMS.frequent}"`), specs.frequent),
    matched: { filterOnly: filterOnlyTotal, ...o.matched },
  };
}

export interface TriageRow {
  scenario: string;
  rps?: number;
  p50?: number;
  p99?: number;
  ratio?: number;
  budget: string;
  met: boolean | null;
  note?: string;
}

/** Rows for the first and the last scale point; the budgets apply at the last. */
export function triageRows(points: TriagePoint[]): TriageRow[] {
  const first = points[0];
  const last = points[points.length - 1];
  const shown = first === last ? [last] : [first, last];
  const rows: TriageRow[] = [];
  const kinds = [
    ['filterOnly', () => `filter-only first page (unsolved, High or Urgent)`, 'p50 ≤ 5 ms', (r: LoadResult) => r.p50 <= 5],
    ['one', () => `search, one word ("${SEARCH_TERMS.one}")`, 'p50 ≤ 20 ms, p99 ≤ 60 ms', (r: LoadResult) => r.p50 <= 20 && r.p99 <= 60],
    ['two', () => `search, two words ("${SEARCH_TERMS.two}")`, 'p50 ≤ 20 ms, p99 ≤ 60 ms', (r: LoadResult) => r.p50 <= 20 && r.p99 <= 60],
    ['frequent', () => `search, a frequent word ("${SEARCH_TERMS.frequent}", no budget)`, '—', null],
  ] as const;
  for (const [key, what, budget, met] of kinds) {
    for (const p of shown) {
      const r = p[key];
      const atLast = p === last;
      rows.push({
        scenario: `4. Triage: ${p.total.toLocaleString('en-US')} tickets, ${what()}, agent with ${p.agentTickets.toLocaleString('en-US')} (1 connection)`,
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        ratio: r.rps / p.baseRps,
        budget: atLast && met ? budget : '—',
        met: atLast && met ? met(r) : null,
        note: `${p.matched[key].toLocaleString('en-US')} matching`,
      });
    }
  }
  return rows;
}
