/**
 * What ends a wait for a first reply: a public reply by an agent (REPLY_ADDED by an AGENT, or through an API_TOKEN).
 * Notes, system changes, the requester's own messages and automatic mail (a reply by the SYSTEM actor) never do.
 * One predicate, read by the reports' first-response time (migrations/reportFold.ts) and by SLA's first-reply clock,
 * so the two can never disagree on what a first reply is.
 */
const AGENT_ACTORS: ReadonlySet<string> = new Set(['AGENT', 'API_TOKEN']);

/** Whether an event of the ticket's record (its kind and its actor's kind) is a first reply to a waiting requester. */
export function isFirstReply(kind: string, actorKind: string): boolean {
  return kind === 'REPLY_ADDED' && AGENT_ACTORS.has(actorKind);
}
