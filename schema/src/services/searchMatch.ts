/**
 * Where a search matched a ticket, with a short snippet (`Ticket.searchMatch`): the first of the ticket's own texts
 * (subject, title, description, requester) holding a word of the search, the word matched as the index matches it
 * (case and accents ignored, a word of two or more characters also as the start of a longer one). The snippet is
 * plain text of at most about 100 characters around the first match (runs of white space as one space), with the
 * places of the matching words in it as ranges (`start`, `length`, in UTF-16 code units as JavaScript counts them):
 * no markup in the text, so nothing of it can be mistaken for a marker.
 */
import { searchWords } from '../validation/rules.js';

export const SEARCH_MATCH_IN = ['SUBJECT', 'TITLE', 'DESCRIPTION', 'REQUESTER', 'REPLY', 'NOTE', 'REQUESTER_MESSAGE', 'ATTACHMENT'] as const;
export type SearchMatchIn = (typeof SEARCH_MATCH_IN)[number];
export interface Highlight {
  start: number;
  length: number;
}
export interface Snippet {
  snippet: string;
  highlights: Highlight[];
}
export interface SearchMatch extends Snippet {
  in: SearchMatchIn;
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const CONTEXT = 40;
/** At most this many ranges per snippet (the schema's cost model prices the list at this bound). */
export const MAX_HIGHLIGHTS = 10;

/** The words of `text` (with their places) that a word of the search matches. */
function hits(text: string, words: string[]): { start: number; end: number }[] {
  const folded = words.map(fold).filter(Boolean);
  const found: { start: number; end: number }[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const token = fold(m[0]);
    if (folded.some((w) => (w.length >= 2 ? token.startsWith(w) : token === w))) found.push({ start: m.index, end: m.index + m[0].length });
  }
  return found;
}

const plain = (text: string) => text.replace(/\s+/g, ' ');

/** The snippet of `text` around its first match, or null when no word of the search is in it. */
export function snippetOf(text: string, words: string[]): Snippet | null {
  const found = hits(text, words);
  if (!found.length) return null;
  const from = Math.max(0, found[0].start - CONTEXT);
  const to = Math.min(text.length, found[0].end + CONTEXT * 1.5);
  let snippet = from > 0 ? '…' : '';
  const highlights: Highlight[] = [];
  let at = from;
  for (const h of found) {
    if (h.start < from || h.end > to || highlights.length === MAX_HIGHLIGHTS) continue;
    snippet += plain(text.slice(at, h.start));
    highlights.push({ start: snippet.length, length: h.end - h.start });
    snippet += text.slice(h.start, h.end);
    at = h.end;
  }
  snippet += plain(text.slice(at, to)) + (to < text.length ? '…' : '');
  return { snippet, highlights };
}

/** The first of `places` (in order) where the search matches, with its snippet; null when none does. */
export function firstMatch(search: string, places: readonly [SearchMatchIn, string | null | undefined][]): SearchMatch | null {
  const words = searchWords(search);
  if (!words.length) return null;
  for (const [where, text] of places) {
    const found = text ? snippetOf(text, words) : null;
    if (found) return { in: where, ...found };
  }
  return null;
}
