/**
 * A macro's text filled in for one ticket (`renderMacro`): the one place that knows the placeholders, so a later
 * kind of macro (automations) adds its names to PLACEHOLDERS and their values to `valuesFor`.
 *
 * Mustache, logic-less: the template is tokenized by mustache's own parser and only a top-level variable tag naming a
 * known placeholder (`{{ticket.id}}`, spaces inside allowed) is replaced, by its plain value (no HTML escaping: the
 * result is plain text). Everything else stays exactly as typed: sections, inverted sections, partials, comments,
 * triple-stash and `&` tags, unknown names, and all text after a delimiter change. A template mustache cannot parse
 * (an unclosed section or tag) is filled by the same rule over its plain `{{name}}` tags.
 */
import Mustache from 'mustache';
import { AppError } from '../errors.js';
import { preparedRead } from '../database.js';
import { requireViewer, type ServiceContext } from './context.js';
import { usableMacro } from './macros.js';
import { requesterLink } from './requesterLinks.js';
import * as ticketAccess from './ticketAccess.js';

export const PLACEHOLDERS = ['requester.name', 'ticket.id', 'agent.name', 'ticket.link'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Partial<Record<Placeholder, string>>;

const isPlaceholder = (name: string): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name);

// A writer of our own without a template cache: macro texts are the users', and a cache would keep every one.
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: undefined }).templateCache = undefined;

type Token = [type: string, value: string, start: number, end: number, children?: Token[]];

/** The first delimiter change (`{{=<% %>=}}`) anywhere: after it, tags are not ours to read. */
function firstDelimiterChange(tokens: Token[]): number {
  let first = Infinity;
  for (const t of tokens) {
    if (t[0] === '=') first = Math.min(first, t[2]);
    if (Array.isArray(t[4])) first = Math.min(first, firstDelimiterChange(t[4]));
  }
  return first;
}

/** [start, end, name] of each tag to replace, in order. */
function spans(template: string): [number, number, Placeholder][] {
  let tokens: Token[];
  try {
    tokens = writer.parse(template) as Token[];
  } catch {
    const found: [number, number, Placeholder][] = [];
    for (const m of template.matchAll(/(?<!\{)\{\{\s*([a-z.]+)\s*\}\}(?!\})/g)) if (isPlaceholder(m[1])) found.push([m.index, m.index + m[0].length, m[1]]);
    return found;
  }
  const stop = firstDelimiterChange(tokens);
  return tokens.flatMap((t): [number, number, Placeholder][] => (t[0] === 'name' && isPlaceholder(t[1]) && t[3] <= stop ? [[t[2], t[3], t[1]]] : []));
}

/** The placeholders a template fills (so only their values are read). */
export function placeholdersIn(template: string): Set<Placeholder> {
  return new Set(spans(template).map((s) => s[2]));
}

/** The template with each known placeholder replaced by its value (a missing value leaves the tag as typed). */
export function renderTemplate(template: string, values: PlaceholderValues): string {
  let out = '';
  let at = 0;
  for (const [start, end, name] of spans(template)) {
    const value = values[name];
    if (value === undefined) continue;
    out += template.slice(at, start) + value;
    at = end;
  }
  return out + template.slice(at);
}

/** The values of the placeholders `names` for one ticket the caller may read, applied by the caller. */
async function valuesFor(ctx: ServiceContext, ticketId: number, names: Set<Placeholder>): Promise<PlaceholderValues> {
  const viewerId = requireViewer(ctx);
  const values: PlaceholderValues = { 'ticket.id': String(ticketId) };
  if (names.has('requester.name') || names.has('agent.name')) {
    const [row] = await preparedRead<{ requester: string; agent: string }>(
      ctx.em,
      'macro_render_names',
      'select c.name as requester, u.username as agent from tickets t join customers c on c.id = t.requester_id cross join users u where t.id = ? and u.id = ?',
      [ticketId, viewerId],
    );
    if (!row) throw AppError.notFound('Ticket');
    values['requester.name'] = row.requester;
    values['agent.name'] = row.agent;
  }
  if (names.has('ticket.link')) values['ticket.link'] = await requesterLink(ctx, ticketId);
  return values;
}

/**
 * A macro's text filled in for a ticket: the macro must be one the caller may use (services/macros.ts) and the
 * ticket one they may read (services/ticketAccess.ts); NOT_FOUND otherwise, whichever it is.
 */
export async function renderMacro(ctx: ServiceContext, rawMacroId: unknown, rawTicketId: unknown): Promise<string> {
  const macro = await usableMacro(ctx, rawMacroId);
  const { id: ticketId } = await ticketAccess.readableTicket(ctx, rawTicketId);
  const template = macro.description;
  return renderTemplate(template, await valuesFor(ctx, ticketId, placeholdersIn(template)));
}
