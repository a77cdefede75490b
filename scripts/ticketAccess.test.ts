/**
 * Ticket access is decided in one module, schema/src/services/ticketAccess.ts: a test over the sources
 * of schema/src and gateway/src finds every other place that would decide it itself, in any of the forms the rule
 * takes (an SQL condition on the assignee, the search index's agent token, an ORM filter on the assignee, a
 * comparison with the assignee, an event audience built from the assignee, the live ticket topic). Each form is
 * proven caught by a planted break (a line checked as if it lived at a given path, nothing written to disk), and
 * the same line passes inside the policy module. Entities, migrations (history), the seed and tests are allowed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const POLICY = 'schema/src/services/ticketAccess.ts';
const SCANNED = ['schema/src', 'gateway/src'];

/** Where the assignee may appear in a decision: the policy itself, the schema's history, data and tests. */
function allowed(path: string): boolean {
  return (
    path === POLICY || /\.test\.tsx?$/.test(path) || /^schema\/src\/(entities|migrations|seed|testing)\//.test(path) || path.startsWith('gateway/src/testing/')
  );
}

/** The forms of "who may see or change a ticket", as they would be written outside the policy. */
const DECISIONS: { name: string; pattern: RegExp }[] = [
  // `t.assignee_id = ?`, `assignee_id in (...)`, `s.assignee_id = $1`: the SQL "may read / may change".
  { name: 'an SQL condition on the assignee', pattern: /assignee_id\s*(?:=|<>|!=|\bin\b|\bis\b)\s*[?$(]/i },
  // `agent : "a${viewerId}"`: SQLite's search index token for "may read".
  { name: "the search index's agent token", pattern: /\bagent\s*:\s*\\?["'`]a/ },
  // `{ id, assignee: viewerId }`, `ticket: { assignee: ctx.viewerId }`: the ORM's "may read / may change".
  { name: 'an ORM filter on the assignee', pattern: /\bassignee\s*:\s*(?:viewerId\b|ctx\.viewerId\b|requireViewer\(|\w*\.viewerId\b)/ },
  {
    name: 'an ORM query filtering by the assignee',
    pattern: /\.(?:find\w*|count|nativeUpdate|nativeDelete|qb|createQueryBuilder)\([^;]*\bassignee\s*:/,
  },
  // `ticket.assignee.id === viewerId`, `assigneeId !== viewerId`: the check of one record.
  {
    name: 'a comparison with the assignee',
    pattern: /(?:assignee\.id|assignee_id|assigneeId)\s*(?:===|!==|==|!=)|(?:===|!==|==|!=)\s*[\w.()[\]]*(?:assignee\.id|assignee_id|assigneeId)\b/,
  },
  // `[t.assignee.id]`, `[Number(data.assigneeId)]`: an event's audience.
  { name: 'an audience built from the assignee', pattern: /\[\s*(?:Number\()?[\w.]*(?:assignee\.id|assigneeId|assignee_id)\)?\s*\]/ },
  // `bus.publish('ticket', ...)`, `bus.subscribe('ticket', ...)`: the live topic of the agents who may read.
  { name: 'the live ticket topic', pattern: /\.(?:publish|subscribe|asyncIterator)\(\s*['"`]ticket['"`]/ },
];

/** `path:line: form` for every line of `text` that decides (its first form), placed at `path` (relative to the repository). */
function decisions(path: string, text: string): string[] {
  if (allowed(path)) return [];
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const d = DECISIONS.find((form) => form.pattern.test(line));
    if (d) found.push(`${path}:${i + 1}: ${d.name}`);
  });
  return found;
}

function sources(): string[] {
  return SCANNED.flatMap((dir) =>
    readdirSync(resolve(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) =>
        relative(ROOT, resolve(ROOT, dir, f))
          .split('\\')
          .join('/'),
      ),
  );
}

describe('ticket access is decided only in services/ticketAccess.ts', () => {
  it('no source of schema/src or gateway/src decides it elsewhere', () => {
    const files = sources();
    expect(files).toContain(POLICY);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => decisions(f, readFileSync(resolve(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the policy module itself holds every form of the rule (so the check looks for the real thing)', () => {
    const policy = readFileSync(resolve(ROOT, POLICY), 'utf8');
    const unallowed = decisions('schema/src/services/elsewhere.ts', policy).map((d) => d.replace(/^[^:]+:\d+: /, ''));
    for (const form of [
      'an SQL condition on the assignee',
      "the search index's agent token",
      'an ORM filter on the assignee',
      'a comparison with the assignee',
      'the live ticket topic',
    ])
      expect(unallowed, form).toContain(form);
  });

  // One planted break per form, each at a place outside the policy; the same line inside the policy passes.
  const breaks: [path: string, line: string, form: string][] = [
    ['schema/src/services/tickets.ts', "loadTickets(ctx, 'mine', 'where t.id = ? and t.assignee_id = ?', [id, viewerId]);", 'an SQL condition on the assignee'],
    [
      'schema/src/services/ticketSearch.ts',
      'const q = `select s.ticket_id from ticket_search s where s.assignee_id = $1`;',
      'an SQL condition on the assignee',
    ],
    ['schema/src/services/ticketSearch.ts', 'return `agent : "a${viewerId}" AND title : x`;', "the search index's agent token"],
    [
      'schema/src/services/tickets.ts',
      "const t = await ctx.em.findOne(Ticket, { id, assignee: viewerId }, { populate: ['image'] });",
      'an ORM filter on the assignee',
    ],
    ['schema/src/services/images.ts', 'const i = await em.findOne(TicketImage, { id, ticket: { assignee: ctx.viewerId } });', 'an ORM filter on the assignee'],
    ['schema/src/services/macros.ts', 'await em.nativeUpdate(Ticket, { macro: id, assignee: me }, { macro: 1 });', 'an ORM query filtering by the assignee'],
    ['gateway/src/http/images.ts', 'if (ticket.assigneeId !== viewerId) throw AppError.notFound();', 'a comparison with the assignee'],
    ['schema/src/graphql/resolvers.ts', 'if (viewerId === change.record.assignee.id) return change;', 'a comparison with the assignee'],
    ['schema/src/services/changeLog.ts', "ticket: (kind, t) => draft('TICKET', kind, [t.assignee.id], ticketData(t)),", 'an audience built from the assignee'],
    [
      'schema/src/services/changeLog.ts',
      "ticketData: (kind, data) => draft('TICKET', kind, [Number(data.assigneeId)], data),",
      'an audience built from the assignee',
    ],
    ['schema/src/services/macros.ts', "ctx.deps.bus.publish('ticket', t.assigneeId, { kind: 'UPDATED', id: t.id });", 'the live ticket topic'],
    ['gateway/src/graphql/websockets.ts', "const events = deps.bus.subscribe('ticket', viewerId);", 'the live ticket topic'],
  ];
  it.each(breaks)('a planted break is caught: %s: %s', (path, line, form) => {
    expect(decisions(path, `const before = 1;\n${line}\n`)).toEqual([`${path}:2: ${form}`]);
    expect(decisions(POLICY, line)).toEqual([]);
  });

  it('reading or showing the assignee is not a decision', () => {
    const data = [
      "joins.push('left join users u on u.id = t.assignee_id');",
      'const TICKET_SELECT = `select t.id, t.title, t.assignee_id, t.requester_id from tickets t`;',
      'assigneeId: t.assignee.id,',
      'assignee: t.assigneeId,',
      'return tickets.pageRelations.get(ticket)?.assignee ?? loaders.user.load(ticket.assigneeId);',
      "const ticket = await ctx.em.findOne(Ticket, { macro: id }, { populate: ['image'] });",
      "ctx.deps.bus.publish('macro', viewerId, { kind: 'DELETED', id });",
      "return Buffer.from(`ticket:${id}`).toString('base64url');",
    ];
    expect(decisions('schema/src/services/tickets.ts', data.join('\n'))).toEqual([]);
  });
});
