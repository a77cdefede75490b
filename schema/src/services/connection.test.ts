/**
 * The one cursor codec of every list (services/connection.ts): what each list hands out decodes to the position it
 * came from, in the wire forms clients already hold (`<list>:<id>`, and the ticket list's `ticket:<ORDER>:<key>:<id>`,
 * in base64url), and a cursor of another list, order or shape is refused on `after`. No database: the codec alone.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AppError } from '../errors.js';
import { MESSAGES, TICKET_ORDERS, WEBHOOK_MESSAGES } from '../validation/rules.js';
import { decodeCursor, encodeCursor, readCursor, type CursorKind } from './connection.js';
import * as tickets from './tickets.js';

const KINDS: CursorKind[] = ['ticket', 'customer', 'macro', 'user', 'conversation', 'message', 'delivery'];
const wire = (text: string) => Buffer.from(text).toString('base64url');
const id = fc.integer({ min: 1, max: 999_999_999_999_999 });

function refusal(run: () => unknown): Record<string, string[]> | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.code === 'BAD_USER_INPUT') return error.fields;
    throw error;
  }
  return undefined;
}

describe('the cursor codec', () => {
  it('round-trips every list id cursor in the `<list>:<id>` wire form', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), id, (kind, n) => {
        const cursor = encodeCursor(kind, n);
        expect(cursor).toBe(wire(`${kind}:${n}`));
        expect(decodeCursor(kind, cursor)).toBe(n);
      }),
    );
  });

  it('round-trips the ticket cursors of every order, NEWEST in the original `ticket:<id>` form', () => {
    const key = fc.oneof(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.double({ min: 0, max: 1e6, noNaN: true }));
    fc.assert(
      fc.property(fc.constantFrom(...TICKET_ORDERS), key, id, (order, k, n) => {
        const cursor = tickets.encodeCursor(n, order, k);
        expect(cursor).toBe(wire(order === 'NEWEST' ? `ticket:${n}` : `ticket:${order}:${k}:${n}`));
        expect(tickets.decodeCursor(cursor, order)).toEqual({ order, key: order === 'NEWEST' ? n : k, id: n });
        for (const other of TICKET_ORDERS.filter((o) => o !== order))
          expect(refusal(() => tickets.decodeCursor(cursor, other))).toEqual({ after: [MESSAGES.pageCursor] });
      }),
    );
  });

  it('reads no cursor as the start, and refuses another list, a keyed cursor on an id list and any other text', () => {
    for (const none of [null, undefined, '']) expect(readCursor('customer', none)).toBeNull();
    const bad = [wire('macro:5'), wire('customer:0'), wire('customer:-3'), wire('customer:PRIORITY:2:5'), wire('customer:'), 'not a cursor', 'x'.repeat(400)];
    for (const cursor of bad)
      expect(
        refusal(() => decodeCursor('customer', cursor)),
        cursor,
      ).toEqual({ after: [MESSAGES.pageCursor] });
    expect(refusal(() => decodeCursor('delivery', wire('ticket:5'), WEBHOOK_MESSAGES.deliveryCursor))).toEqual({ after: [WEBHOOK_MESSAGES.deliveryCursor] });
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const fields = refusal(() => readCursor('ticket', text));
        if (fields) expect(fields).toEqual({ after: [MESSAGES.pageCursor] });
      }),
    );
  });
});
