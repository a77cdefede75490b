import { useApolloClient, useMutation, useReactiveVar } from '@apollo/client/react';
import { useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { entryView, type TimelinePage } from './documents';
import { useOlderPages } from './olderPages';
import { liveStatusVar } from '../../live/connection';
import { useSignedInUser } from '../../app/session';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { applyTimelineEvent, insertTimelineEntry } from './cache';
import type { TimelineFilterValue } from './entries';
import { TimelineView } from './TimelineView';
import type { ComposerHandle } from './Composer';
import type { SendStatus } from './SendMenu';
import { useMacroChoices, useRenderMacro } from './macroChoices';

const TIMELINE_EVENTS = graphql(`
  subscription TicketTimelineEvents($ticketId: Int!, $afterSeq: Int) {
    ticketTimelineEvents(ticketId: $ticketId, afterSeq: $afterSeq) {
      __typename
      ...TimelineEntry_note
      ...TimelineEntry_change
      ...TimelineEntry_reply
      ...TimelineEntry_requesterMessage
      ... on TicketChange {
        note {
          ...TimelineEntry_note
        }
      }
    }
  }
`);

/** What the composer needs of the ticket: who the requester is, the macro it suggests, the requester page. */
export const TicketTimeline_ticket = graphql(`
  fragment TicketTimeline_ticket on Ticket {
    id
    requesterLink
    requester {
      id
      name
      email
    }
    macro {
      id
      name
    }
  }
`);

const REPLY = graphql(`
  mutation ReplyToRequester($ticketId: Int!, $body: String!, $attachments: [Upload!], $setStatus: TicketStatus) {
    replyToRequester(ticketId: $ticketId, body: $body, attachments: $attachments, setStatus: $setStatus) {
      __typename
      ...TimelineEntry_reply
    }
  }
`);

const REVOKE_LINK = graphql(`
  mutation RevokeRequesterLink($ticketId: Int!) {
    revokeRequesterLink(ticketId: $ticketId)
  }
`);

/** A reply's mail changed state: Apollo merges it into TicketReply:{id}, wherever the reply is shown. */
const DELIVERY_EVENTS = graphql(`
  subscription ReplyDeliveryEvents($ticketId: Int!) {
    replyDeliveryEvents(ticketId: $ticketId) {
      id
      delivery {
        state
        attempts
        lastResponse
      }
    }
  }
`);

const ADD_NOTE = graphql(`
  mutation AddTicketNote($ticketId: Int!, $body: String!) {
    addTicketNote(ticketId: $ticketId, body: $body) {
      __typename
      ...TimelineEntry_note
    }
  }
`);

const EDIT_NOTE = graphql(`
  mutation EditTicketNote($id: Int!, $body: String!) {
    editTicketNote(id: $id, body: $body) {
      __typename
      ...TimelineEntry_note
    }
  }
`);

const DELETE_NOTE = graphql(`
  mutation DeleteTicketNote($id: Int!) {
    deleteTicketNote(id: $id) {
      __typename
      ...TimelineEntry_note
    }
  }
`);

interface TicketTimelineProps {
  ticketId: number;
  ticket: FragmentType<typeof TicketTimeline_ticket>;
  /** The ticket's timeline as the page's query holds it (newest first, as far back as loaded). */
  timeline: TimelinePage;
  filter: TimelineFilterValue;
  onFilter: (filter: TimelineFilterValue) => void;
  /** The page's query is fetching another filter's first page (the previous list is shown meanwhile). */
  loading: boolean;
  /** The composer, for the page's r and n shortcuts. */
  composerHandle?: Ref<ComposerHandle>;
}

/**
 * The ticket page's timeline: the entries its query brought, older pages on demand, live entries from other tabs
 * and doors (`ticketTimelineEvents` from the highest seq held, again from there after a reconnect), and the note
 * mutations, whose answers update the cache (no refetch).
 */
export function TicketTimeline({ ticketId, ticket: ticketRef, timeline, filter, onFilter, loading, composerHandle }: TicketTimelineProps) {
  const ticket = useFragment(TicketTimeline_ticket, ticketRef);
  const me = useSignedInUser();
  const client = useApolloClient();
  const [deleting, setDeleting] = useState<number | null>(null);
  const older = useOlderPages(client, ticketId, filter, timeline);
  // The first page (with the live entries on top) and the older pages loaded, each its own cached list.
  const entries = useMemo(() => [timeline.nodes, ...older.pages.map((page) => page.nodes)].flat().map(entryView), [timeline.nodes, older.pages]);

  // The highest seq this screen has held: a (re)subscription asks for what came after it.
  const highestSeq = useRef(0);
  const newest = entries[0]?.seq ?? 0;
  useEffect(() => {
    highestSeq.current = Math.max(highestSeq.current, newest);
  }, [newest]);

  // Subscribed while the socket is up; after a lost socket, subscribed again from the highest seq held (graphql-ws
  // would resend the first subscription's afterSeq and replay everything since the page opened).
  const live = useReactiveVar(liveStatusVar);
  const up = live === 'connecting' || live === 'connected';
  useEffect(() => {
    if (!up) return;
    const subscription = client.subscribe({ query: TIMELINE_EVENTS, variables: { ticketId, afterSeq: highestSeq.current || null } }).subscribe({
      next({ data, error }) {
        if (error) {
          if (liveStatusVar() !== 'offline') console.warn('timeline event', error);
          return;
        }
        if (!data) return;
        const entry = data.ticketTimelineEvents;
        highestSeq.current = Math.max(highestSeq.current, entryView(entry).seq);
        try {
          applyTimelineEvent(client, ticketId, entry);
        } catch (failure) {
          console.error('timeline event not applied', failure);
        }
      },
    });
    return () => subscription.unsubscribe();
  }, [client, ticketId, up]);

  // Replies' delivery states, live (the sender on any gateway announces each change).
  useEffect(() => {
    if (!up) return;
    const subscription = client.subscribe({ query: DELIVERY_EVENTS, variables: { ticketId } }).subscribe({
      next({ error }) {
        if (error && liveStatusVar() !== 'offline') console.warn('delivery event', error);
      },
    });
    return () => subscription.unsubscribe();
  }, [client, ticketId, up]);

  const [reply] = useMutation(REPLY);
  const { macros } = useMacroChoices();
  const renderMacro = useRenderMacro(ticketId);
  const [revokeLink] = useMutation(REVOKE_LINK, {
    update(cache, { data }) {
      if (data) cache.modify({ id: cache.identify({ __typename: 'Ticket', id: ticketId }), fields: { requesterLink: () => data.revokeRequesterLink } });
    },
  });

  const [addNote] = useMutation(ADD_NOTE, {
    update(cache, { data }) {
      if (data) insertTimelineEntry(cache, ticketId, data.addTicketNote);
    },
  });
  const [editNote] = useMutation(EDIT_NOTE);
  const [deleteNote] = useMutation(DELETE_NOTE);

  return (
    <>
      <TimelineView
        entries={entries}
        meId={me.id}
        filter={filter}
        onFilter={onFilter}
        loading={loading}
        composer={{
          requester: ticket.requester,
          macro: ticket.macro,
          macros,
          meId: me.id,
          handle: composerHandle,
          renderMacro,
          requesterLink: ticket.requesterLink,
          onReply: async (body, files, setStatus: SendStatus) => {
            await reply({
              variables: { ticketId, body, attachments: files.length ? files : null, setStatus },
              update(cache, { data }) {
                if (!data) return;
                insertTimelineEntry(cache, ticketId, data.replyToRequester);
                // The status changed with the reply (its live event brings the change line; the control shows it now).
                if (setStatus) cache.modify({ id: cache.identify({ __typename: 'Ticket', id: ticketId }), fields: { status: () => setStatus } });
              },
            });
          },
          onRevokeLink: async () => {
            await revokeLink({ variables: { ticketId } });
          },
        }}
        hasOlder={older.hasOlder}
        loadOlder={older.loadOlder}
        actions={{
          add: async (body) => {
            await addNote({ variables: { ticketId, body } });
          },
          edit: async (id, body) => {
            await editNote({ variables: { id, body } });
          },
          confirmDelete: setDeleting,
        }}
      />
      {deleting !== null && (
        <ConfirmModal
          title="Delete Note"
          question="Delete this note? Its text and earlier versions are removed; the timeline keeps that it was deleted."
          confirmLabel="Delete Note"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await deleteNote({ variables: { id: deleting } });
            setDeleting(null);
          }}
        />
      )}
    </>
  );
}
