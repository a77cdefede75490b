import { graphql, useFragment, type FragmentType } from '../../gql';
import type { TicketTimelinePageQuery } from '../../gql/graphql';
import type { TimelineEntryView } from './entryTypes';

/** A note entry as every timeline surface selects it (the page, older pages, live events, the note mutations). */
export const TimelineEntry_note = graphql(`
  fragment TimelineEntry_note on TicketNote {
    id
    seq
    at
    body
    editedAt
    deletedAt
    author {
      id
      username
    }
    revisions {
      id
      at
      body
      editor {
        id
        username
      }
    }
  }
`);

/** A change entry, likewise. */
export const TimelineEntry_change = graphql(`
  fragment TimelineEntry_change on TicketChange {
    seq
    at
    kind
    via
    noteId
    actor {
      kind
      name
      user {
        id
      }
    }
    changes {
      field
      from
      to
      fromLabel
      toLabel
    }
  }
`);

// `text: body`: a union's entries may not select one field name with two types (TicketNote's body is nullable).
/** A public reply to the requester, with its mail's delivery (updated live by replyDeliveryEvents). */
export const TimelineEntry_reply = graphql(`
  fragment TimelineEntry_reply on TicketReply {
    id
    seq
    at
    text: body
    author {
      id
      username
    }
    delivery {
      state
      attempts
      lastResponse
    }
    attachments {
      id
      filename
      mimeType
      byteSize
      url
    }
  }
`);

/** What the requester sent (from their page, or by mail: then with its authentication, and held for an agent when in doubt). */
export const TimelineEntry_requesterMessage = graphql(`
  fragment TimelineEntry_requesterMessage on RequesterMessage {
    id
    seq
    at
    fromEmail
    text: body
    via
    held
    heldReason
    discardedAt
    subject
    authentication {
      spf
      dkim
      dmarc
    }
    attachments {
      id
      filename
      mimeType
      byteSize
      url
    }
  }
`);

/**
 * An older page of the timeline: written to the cache, where it joins the page's list. The first page comes with
 * the ticket page's own query (ViewTicketPage), which selects `timeline` the same way (inline: the gateway's depth
 * limit of 8 counts a fragment spread as a level, and revisions' editor sits at 7).
 */
export const TIMELINE_PAGE = graphql(`
  query TicketTimelinePage($ticketId: Int!, $timelineFilter: TimelineFilter!, $after: String) {
    ticket(id: $ticketId) {
      id
      timeline(first: 50, after: $after, filter: $timelineFilter) {
        nodes {
          __typename
          ...TimelineEntry_note
          ...TimelineEntry_change
          ...TimelineEntry_reply
          ...TimelineEntry_requesterMessage
        }
        pageInfo {
          endCursor
          hasNextPage
        }
      }
    }
  }
`);

/** A page of a timeline as the ticket page's query and TIMELINE_PAGE select it. */
export type TimelinePage = TicketTimelinePageQuery['ticket']['timeline'];

/** A timeline entry of any of the documents above (masked by fragment), with its fields read out. */
type EntryRef =
  | ({ __typename: 'TicketNote' } & FragmentType<typeof TimelineEntry_note>)
  | ({ __typename: 'TicketChange' } & FragmentType<typeof TimelineEntry_change>)
  | ({ __typename: 'TicketReply' } & FragmentType<typeof TimelineEntry_reply>)
  | ({ __typename: 'RequesterMessage' } & FragmentType<typeof TimelineEntry_requesterMessage>);

function unknownKind(entry: never): never {
  throw new Error(`timeline entry of an unknown kind: ${(entry as { __typename: string }).__typename}`);
}

/** Views by result object: Apollo keeps an unchanged entry's object, so its row (memoized) does not render again. */
const views = new WeakMap<object, TimelineEntryView>();

// graphql-codegen's `useFragment` is no React hook: it only reads a fragment's fields out of a result.
/* eslint-disable react-hooks/rules-of-hooks */
export function entryView(entry: EntryRef): TimelineEntryView {
  let view = views.get(entry);
  if (!view) {
    switch (entry.__typename) {
      case 'TicketNote':
        view = { __typename: 'TicketNote', ...useFragment(TimelineEntry_note, entry) };
        break;
      case 'TicketChange':
        view = { __typename: 'TicketChange', ...useFragment(TimelineEntry_change, entry) };
        break;
      case 'TicketReply':
        view = { __typename: 'TicketReply', ...useFragment(TimelineEntry_reply, entry) };
        break;
      case 'RequesterMessage':
        view = { __typename: 'RequesterMessage', ...useFragment(TimelineEntry_requesterMessage, entry) };
        break;
      default:
        // A kind without a case here does not compile: `entry` is then not `never`.
        return unknownKind(entry);
    }
    views.set(entry, view);
  }
  return view;
}
