/**
 * The timeline's entry kinds, from codegen's types only: each kind's view is its fragment's result (documents.ts)
 * with its `__typename`. `EntryKind` is the schema's `TimelineEntry` union as the page query selects it, so a kind
 * the server adds is a type error here (`EntryViews` has no view for it) and in the presenters' registry
 * (rows/presenters.tsx) until it has both.
 */
import type {
  TicketTimelinePageQuery,
  TimelineEntry_ChangeFragment,
  TimelineEntry_NoteFragment,
  TimelineEntry_ReplyFragment,
  TimelineEntry_RequesterMessageFragment,
} from '../../gql/graphql';

/** Every kind of timeline entry the schema has. */
export type EntryKind = TicketTimelinePageQuery['ticket']['timeline']['nodes'][number]['__typename'];

/** Each kind's view: what its fragment selects, tagged with its kind. */
export interface EntryViews {
  TicketNote: { __typename: 'TicketNote' } & TimelineEntry_NoteFragment;
  TicketChange: { __typename: 'TicketChange' } & TimelineEntry_ChangeFragment;
  TicketReply: { __typename: 'TicketReply' } & TimelineEntry_ReplyFragment;
  RequesterMessage: { __typename: 'RequesterMessage' } & TimelineEntry_RequesterMessageFragment;
}

/** A note entry of the timeline. */
export type NoteEntry = EntryViews['TicketNote'];
/** A change entry (grouped into lines by entries.ts). */
export type ChangeEntry = EntryViews['TicketChange'];
/** An agent's public reply to the requester, with its mail's delivery. */
export type ReplyEntry = EntryViews['TicketReply'];
/** What the requester sent. */
export type RequesterMessageEntry = EntryViews['RequesterMessage'];
/** A file of a reply or a requester's message. */
export type AttachmentView = ReplyEntry['attachments'][number];

/** Any entry of the timeline (indexing by `EntryKind` fails to compile when a kind has no view). */
export type TimelineEntryView = EntryViews[EntryKind];
/** The kinds shown as a card of their own (changes are grouped into lines). */
export type CardKind = Exclude<EntryKind, 'TicketChange'>;
export type CardEntry = EntryViews[CardKind];
