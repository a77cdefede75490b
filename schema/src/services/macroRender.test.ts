/**
 * renderMacro: the four placeholders filled with plain text, everything else kept exactly as typed (fast-check over
 * random templates: never throws, unknown tags and sections kept), and its access rule (a macro the caller may use,
 * a ticket they may read; NOT_FOUND otherwise). A real database (SQLite, or PostgreSQL + Redis in the second pass).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { PLACEHOLDERS, renderMacro, renderTemplate, type PlaceholderValues } from './macroRender.js';
import { createMacro } from './macros.js';
import { requesterLink } from './requesterLinks.js';
import { createTicket } from './tickets.js';

const VALUES: PlaceholderValues = { 'requester.name': 'Ann <b>&', 'ticket.id': '42', 'agent.name': 'marnie', 'ticket.link': 'http://x.test/r/abc' };

describe('renderTemplate', () => {
  it('fills the four (spaces inside allowed, no HTML escaping) and keeps everything else as typed', () => {
    expect(renderTemplate('Hi {{requester.name}}, #{{ ticket.id }} by {{agent.name}}: {{ticket.link}}', VALUES)).toBe(
      'Hi Ann <b>&, #42 by marnie: http://x.test/r/abc',
    );
    for (const literal of [
      '{{unknown}}',
      '{{#ticket.id}}x{{/ticket.id}}',
      '{{^requester.name}}none{{/requester.name}}',
      '{{> partial}}',
      '{{! comment }}',
      '{{{requester.name}}}',
      '{{& agent.name}}',
      '{{#open}}',
      '{{/close}}',
      '{{unclosed',
      '}}{{',
    ])
      expect(renderTemplate(literal, VALUES)).toBe(literal);
    expect(renderTemplate('{{ticket.id}} {{=<% %>=}} <% ticket.id %> {{ticket.id}}', VALUES)).toBe('42 {{=<% %>=}} <% ticket.id %> {{ticket.id}}');
    // A template mustache cannot parse still has its plain tags filled.
    expect(renderTemplate('{{#open}} {{ticket.id}}', VALUES)).toBe('{{#open}} 42');
  });

  const text = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '.', 'x', '#', '/', '{', '}', '=', '>', '^', '!', '&') });
  const known = fc.constantFrom(...PLACEHOLDERS);
  const unknownName = fc.stringMatching(/^[a-z][a-z.]{0,12}$/).filter((n) => !(PLACEHOLDERS as readonly string[]).includes(n));

  it('never throws, and a template without a known tag comes back unchanged (random templates)', () => {
    fc.assert(
      fc.property(text, (template) => {
        const out = renderTemplate(template, VALUES);
        if (!/\{\{\s*(requester\.name|ticket\.id|agent\.name|ticket\.link)\s*\}\}/.test(template)) expect(out).toBe(template);
      }),
      { numRuns: 500 },
    );
  });

  it('fills known tags between plain text and unknown tags, which stay literal', () => {
    const piece = fc.oneof(
      fc.stringMatching(/^[a-z ,.\n]{0,8}$/).map((t) => ({ template: t, expected: t })),
      known.map((n) => ({ template: `{{${n}}}`, expected: VALUES[n]! })),
      unknownName.map((n) => ({ template: `{{${n}}}`, expected: `{{${n}}}` })),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        expect(renderTemplate(pieces.map((p) => p.template).join(''), VALUES)).toBe(pieces.map((p) => p.expected).join(''));
      }),
      { numRuns: 300 },
    );
  });
});

describe('renderMacro', () => {
  let kit: ServiceKit;
  beforeAll(async () => {
    kit = await openServiceKit();
  });
  afterAll(() => kit?.close());

  it("fills the ticket's requester, id, the applying agent and the requester page link", async () => {
    const agent = await kit.newAgent();
    const ticket = await createTicket(kit.as(agent), { title: 'Render me', requesterId: 1, description: 'Something broke.' });
    const macro = await createMacro(kit.as(agent), {
      name: 'Password reset',
      description: 'Hi {{requester.name}}, about #{{ticket.id}}: see {{ticket.link}} - {{agent.name}} {{#keep}}{{other}}{{/keep}}',
    });
    const [{ name }] = await kit.rows<{ name: string }>('select name from customers where id = 1');
    const [{ username }] = await kit.rows<{ username: string }>('select username from users where id = ?', [agent]);
    const link = await requesterLink(kit.as(agent), ticket.id);
    expect(await renderMacro(kit.as(agent), macro.id, ticket.id)).toBe(
      `Hi ${name}, about #${ticket.id}: see ${link} - ${username} {{#keep}}{{other}}{{/keep}}`,
    );
  });

  it("NOT_FOUND for another agent's private macro or a ticket the caller may not read", async () => {
    const [owner, other] = [await kit.newAgent(), await kit.newAgent()];
    const ticket = await createTicket(kit.as(owner), { title: 'Private', requesterId: 1, description: 'Not yours.' });
    const macro = await createMacro(kit.as(owner), { name: 'Mine', description: '{{ticket.id}}' });
    const theirs = await createMacro(kit.as(other), { name: 'Theirs', description: '{{ticket.id}}' });
    expect((await refused(renderMacro(kit.as(other), macro.id, ticket.id))).code).toBe('NOT_FOUND');
    expect((await refused(renderMacro(kit.as(other), theirs.id, ticket.id))).code).toBe('NOT_FOUND');
    expect((await refused(renderMacro(kit.as(owner), 'x', ticket.id))).code).toBe('NOT_FOUND');
    expect(await renderMacro(kit.as(owner), macro.id, ticket.id)).toBe(String(ticket.id));
  });
});
