/** The compiled ticket-list serialiser writes exactly what JSON.stringify writes, for any text a ticket may hold. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TicketRecord } from '@fulcrum/schema';
import { restTicket, stringifyTicketList } from './shapes.js';

/** Any UTF-16 text: control characters, quotes, backslashes, U+2028, astral characters and lone surrogates. */
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }));
const id = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const ticket: fc.Arbitrary<TicketRecord> = fc.record({
  id,
  title: text,
  type: fc.constantFrom('Question', 'Incident', 'Problem', 'Task'),
  priority: fc.constantFrom('Low', 'Medium', 'High', 'Urgent'),
  status: fc.constantFrom('OPEN', 'PENDING', 'SOLVED'),
  assigneeId: id,
  teamId: fc.constant(null),
  version: id,
  requesterId: id,
  macroId: id,
  description: text,
  image: fc.option(fc.record({ id, ticketId: id, mimeType: fc.constant('image/png'), byteSize: id, width: id, height: id }), { nil: null }),
  createdAt: fc.date({ noInvalidDate: true }),
  updatedAt: fc.date({ noInvalidDate: true }),
});

describe('stringifyTicketList', () => {
  it('is byte for byte JSON.stringify of the REST shapes', () => {
    fc.assert(
      fc.property(fc.array(ticket, { maxLength: 8 }), (tickets) => {
        const shapes = tickets.map(restTicket);
        expect(stringifyTicketList(shapes)).toBe(JSON.stringify(shapes));
      }),
      { numRuns: 2000 },
    );
  });

  it('a known ticket, as REST-CONTRACT.md spells it', () => {
    const [shape] = [{ id: 7, title: 'Printer "HP"\n', type: 'Task', priority: 'High', assigneeId: 1, requesterId: 2, macroId: 3, description: 'a\\b' }].map(
      (t) =>
        restTicket({
          ...t,
          status: 'OPEN',
          image: { id: 9, ticketId: 7, mimeType: 'image/png', byteSize: 1, width: 1, height: 1 },
          createdAt: new Date(0),
          updatedAt: new Date(0),
        } as TicketRecord),
    );
    expect(stringifyTicketList([shape])).toBe(
      '[{"id":7,"title":"Printer \\"HP\\"\\n","type":"Task","priority":"High","assignee":1,"requester":2,"apply_macro":3,"description":"a\\\\b","tickets_images":[{"id":9,"ticket_id":7,"image":"/images/9"}]}]',
    );
    expect(stringifyTicketList([])).toBe('[]');
  });
});
