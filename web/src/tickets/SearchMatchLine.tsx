/**
 * The line under a listed ticket's title when the list is a search: where it matched ("Matched in a note:") and the
 * snippet around the match with the matching words in <mark> (built as elements from the highlight ranges, never as
 * HTML). Its fields are in the row's fragment (TicketRow_ticket, inline: a fragment of its own would be one level
 * more of the query depth the gateway limits), so the list's one query brings them; a list without a search gets
 * null and shows no line. The words are read as one sentence by a screen reader.
 */
import type { TicketRow_TicketFragment } from '../gql/graphql';
import { matchedIn, snippetPieces } from './searchMatchText';

export function SearchMatchLine({ match }: { match: TicketRow_TicketFragment['searchMatch'] }) {
  if (!match) return null;
  return (
    <p className="search-match">
      <span className="search-match-in">Matched {matchedIn(match.in)}:</span>{' '}
      <span className="search-match-snippet">
        {snippetPieces(match.snippet, match.highlights).map((piece, index) => (piece.marked ? <mark key={index}>{piece.text}</mark> : piece.text))}
      </span>
    </p>
  );
}
