/**
 * Triage at scale (issue 14): the seeded tickets' text, status, type and priority, the search words the bench
 * asks for, and the GraphQL request of the searched and filtered dashboard. Used by the scale scenario.
 *
 * The text: titles and descriptions drawn from a 2,000-word vocabulary with a Zipf-like spread (a few words in
 * many tickets, most in few), as real tickets are. The bench's one-word query is a word in about 0.5% of the
 * measured agent's tickets, the two-word query two words of 2-5% each that occur together; a frequent word
 * (about 5%) is measured beside them, without a budget, to show how a poor query costs.
 */
import type { Db } from './seed.js';
import type { LoadSpec } from './lib.js';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pu', 'ba', 'de', 'fi', 'go'];
/** 2,000 pronounceable made-up words (no English word, so no query collides with the fixed seed text). */
export const VOCABULARY: string[] = (() => {
  const words: string[] = [];
  for (let i = 0; words.length < 2000; i++) {
    const a = SYLLABLES[i % 14];
    const b = SYLLABLES[Math.floor(i / 14) % 14];
    const c = SYLLABLES[Math.floor(i / 196) % 14];
    words.push(`${a}${b}${c}${i >= 2744 ? 'x' : ''}`);
  }
  return words;
})();

const STATUSES = ['OPEN', 'PENDING', 'SOLVED'] as const;
const TYPES = ['Question', 'Incident', 'Problem', 'Task'] as const;
const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;

export interface SeededTicket { title: string; description: string; status: string; type: string; priority: string }

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

function matches(db: Db, agentId: number, words: string[]): number {
  const query = `agent : "a${agentId}" AND {title description requester} : (${words.map((w) => `"${w}"*`).join(' AND ')})`;
  return Number((db.prepare('select count(*) as n from ticket_search where ticket_search match ?').get(query) as { n: number }).n);
}

/**
 * The words the bench searches for, chosen by how many of the agent's tickets hold them (read from the index):
 * one-word ~0.5%, two words of 2-5% each that meet in at least a few tickets, and a frequent word (~5%).
 */
export function searchTerms(db: Db, agentId: number, agentTickets: number): { one: string; two: string; frequent: string; counts: Record<string, number> } {
  const share = (w: string[]) => matches(db, agentId, w) / Math.max(1, agentTickets);
  const byFrequency = VOCABULARY.slice(0, 600);
  const one = byFrequency.find((w) => share([w]) > 0.003 && share([w]) <= 0.007) ?? byFrequency[300];
  const mid = byFrequency.filter((w) => share([w]) >= 0.02 && share([w]) <= 0.05).slice(0, 12);
  let two = `${mid[0] ?? byFrequency[20]} ${mid[1] ?? byFrequency[21]}`;
  for (let a = 0; a < mid.length; a++) {
    const partner = mid.slice(a + 1).find((b) => matches(db, agentId, [mid[a], b]) >= 5);
    if (partner) {
      two = `${mid[a]} ${partner}`;
      break;
    }
  }
  const frequent = byFrequency.find((w) => share([w]) >= 0.04 && share([w]) <= 0.07) ?? byFrequency[5];
  const counts = { [one]: matches(db, agentId, [one]), [two]: matches(db, agentId, two.split(' ')), [frequent]: matches(db, agentId, [frequent]) };
  return { one, two, frequent, counts };
}

/** The dashboard's own query (web/src/tickets/DashboardPage.tsx) with the row fragment's fields. */
const TRIAGE = `query Triage($first: Int!, $filter: TicketFilter, $orderBy: TicketOrder) {
  tickets(first: $first, filter: $filter, orderBy: $orderBy) {
    totalCount
    statusCounts { open pending solved }
    nodes { id title type priority status requesterId updatedAt requester { id name } image { id url } }
    pageInfo { endCursor hasNextPage }
  }
}`;

export const FILTER_ONLY = { status: ['OPEN', 'PENDING'], priority: ['High', 'Urgent'] };

export function triageSpec(url: string, cookie: string, filter: Record<string, unknown>, orderBy: string | null = null): LoadSpec {
  return {
    url: `${url}/graphql`, method: 'POST', headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query: TRIAGE, variables: { first: 50, filter, orderBy } }),
  };
}
