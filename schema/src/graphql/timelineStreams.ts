/**
 * The live streams behind the timeline's subscriptions: a ticket's entries as they are committed (with catch-up
 * from a seq, so a reconnecting client misses none and gets none twice) and its replies' delivery changes. Each
 * listens on the viewer's bus topic before its first read, checks access before it starts (NOT_FOUND), and reads
 * in a unit of work of its own under the viewer's identity.
 */
import { forkEm } from '../database.js';
import { requesterReplies, ticketAccess, ticketTimeline } from '../services/index.js';
import type { TicketReplyRecord } from '../services/requesterReplies.js';
import { requireViewer, type ServiceContext } from '../services/context.js';
import type { TimelineEntryRecord } from '../services/ticketTimeline.js';
import type { TimelineSignal } from '../realtime/events.js';

/** A context of its own for one read of a live stream (its own unit of work, the viewer's identity). */
function readerOf(service: ServiceContext, viewerId: number): () => ServiceContext {
  return () => ({ em: forkEm(service.deps.orm), viewerId, deps: service.deps, clientIp: service.clientIp, via: service.via, token: service.token });
}

/** The delivery changes of one ticket's replies, each reply re-read (with its state now) under the viewer's rights. */
export async function replyDeliveryStream(service: ServiceContext, args: { ticketId: number }): Promise<AsyncIterable<TicketReplyRecord>> {
  const viewerId = requireViewer(service);
  const reader = readerOf(service, viewerId);
  const source = ticketAccess.subscribeReplyDelivery(service.deps.bus, viewerId);
  let pending = source.next();
  try {
    await ticketTimeline.lastTimelineSeq(reader(), args.ticketId); // the access check: NOT_FOUND before it starts
  } catch (error) {
    await source.return?.();
    throw error;
  }
  async function* replies(): AsyncGenerator<TicketReplyRecord> {
    try {
      for (;;) {
        const signal = await pending;
        if (signal.done) return;
        pending = source.next();
        if (signal.value.ticketId !== args.ticketId) continue;
        try {
          yield await requesterReplies.replyRecord(reader(), signal.value.replyId);
        } catch {
          // The ticket left the viewer (deleted, reassigned): nothing to send.
        }
      }
    } finally {
      await source.return?.();
    }
  }
  return replies();
}

/** At most this many entries per catch-up read. */
const CATCH_UP_BATCH = 100;

/**
 * The live timeline of one ticket: listens on the viewer's `timeline` topic first, then reads the entries after
 * `afterSeq` from the record, then follows the topic, reading the record after the last seq sent on each signal
 * (so an entry whose signal was lost or came out of order is still sent, and none twice). Ends after the ticket's
 * DELETED entry. Each read has its own unit of work, under the viewer's identity and the access policy.
 */
export async function timelineStream(
  service: ServiceContext,
  args: { ticketId: number; afterSeq?: number | null },
): Promise<AsyncIterable<TimelineEntryRecord>> {
  const viewerId = requireViewer(service);
  const reader = (): ServiceContext => ({
    em: forkEm(service.deps.orm),
    viewerId,
    deps: service.deps,
    clientIp: service.clientIp,
    via: service.via,
    token: service.token,
  });
  const source = ticketAccess.subscribeTimeline(service.deps.bus, viewerId);
  // Starts the listener now (the bus's iterator listens from its first `next`): nothing committed from here on is missed.
  let pending = source.next();
  let last: number;
  try {
    // Also the access check: another agent's ticket is NOT_FOUND before the subscription starts.
    const current = await ticketTimeline.lastTimelineSeq(reader(), args.ticketId);
    last = args.afterSeq ?? current;
  } catch (error) {
    await source.return?.();
    throw error;
  }
  async function* entries(): AsyncGenerator<TimelineEntryRecord> {
    try {
      for (;;) {
        let batch: TimelineEntryRecord[];
        do {
          batch = await ticketTimeline.timelineEntriesAfter(reader(), args.ticketId, last, CATCH_UP_BATCH);
          for (const entry of batch) {
            last = entry.seq;
            yield entry;
            if (entry.entry === 'change' && entry.kind === 'DELETED') return;
          }
        } while (batch.length === CATCH_UP_BATCH);
        let signal: IteratorResult<TimelineSignal>;
        do {
          signal = await pending;
          if (signal.done) return;
          pending = source.next();
        } while (signal.value.ticketId !== args.ticketId || signal.value.seq <= last);
      }
    } finally {
      await source.return?.();
    }
  }
  return entries();
}
