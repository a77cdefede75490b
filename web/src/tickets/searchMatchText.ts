/**
 * Where a search matched, in words, and the snippet cut into plain and highlighted pieces. The server sends the
 * snippet as plain text with the matching words as ranges (`SearchMatch.highlights`), never markup: the list builds
 * its <mark> elements from these pieces, so a snippet that contains "<b>" shows "<b>". Ranges that overlap one
 * before them, reach past the snippet or are empty are left out (the server sends none; the web does not trust it).
 */

import type { SearchMatchIn } from '../gql/graphql';

/** "Matched in a note": the words after "Matched" for each `SearchMatchIn` (the type makes a new place a compile error here). */
export const MATCHED_IN: Record<SearchMatchIn, string> = {
  SUBJECT: 'in the subject',
  TITLE: 'in the title',
  DESCRIPTION: 'in the description',
  REQUESTER: 'in the requester',
  REPLY: 'in a reply',
  NOTE: 'in a note',
  REQUESTER_MESSAGE: "in the requester's message",
  ATTACHMENT: 'in an attachment name',
};

export function matchedIn(where: SearchMatchIn): string {
  return MATCHED_IN[where];
}

export interface SnippetPiece {
  text: string;
  marked: boolean;
}

/** The snippet in order, each piece plain or highlighted; the pieces' texts joined are the snippet. */
export function snippetPieces(snippet: string, highlights: readonly { start: number; length: number }[]): SnippetPiece[] {
  const ranges = [...highlights].sort((a, b) => a.start - b.start);
  const pieces: SnippetPiece[] = [];
  let at = 0;
  for (const { start, length } of ranges) {
    const end = start + length;
    if (length <= 0 || start < at || end > snippet.length) continue;
    if (start > at) pieces.push({ text: snippet.slice(at, start), marked: false });
    pieces.push({ text: snippet.slice(start, end), marked: true });
    at = end;
  }
  if (at < snippet.length) pieces.push({ text: snippet.slice(at), marked: false });
  return pieces;
}
