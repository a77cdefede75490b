import { useMutation, useQuery } from '@apollo/client/react';
import { useNavigate, useParams } from 'react-router-dom';
import { isGone, routeId } from '../apollo/errors';
import { useAllPages } from '../apollo/useAllPages';
import { TicketForm, type TicketValues } from './TicketForm';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import { useSignedInUser } from '../app/session';
import { NotFoundPanel } from '../ui/NotFoundPanel';
import { FormPage } from '../ui/FormPage';

const EDIT_TICKET_PAGE = graphql(`
  query EditTicketPage($id: Int!, $after: String) {
    ticket(id: $id) {
      id
      ...TicketForm_ticket
    }
    macros(first: 100, after: $after) {
      nodes {
        id
        ...TicketForm_macro
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** The result lands on Ticket:{id} in the cache, so the dashboard row and the detail update themselves. */
const UPDATE_TICKET = graphql(`
  mutation UpdateTicket($id: Int!, $input: TicketInput!, $image: Upload) {
    updateTicket(id: $id, input: $input, image: $image) {
      id
      ...TicketRow_ticket
      ...TicketDetail_ticket
      ...TicketForm_ticket
      version
    }
  }
`);

function EditTicketScreen({ id }: { id: number }) {
  const me = useSignedInUser();
  const navigate = useNavigate();
  const { data, error, refetch, fetchMore } = useQuery(EDIT_TICKET_PAGE, { variables: { id } });
  const allMacros = useAllPages(data?.macros, fetchMore);
  const [updateTicket] = useMutation(UPDATE_TICKET);

  if (isGone(error)) return <NotFoundPanel what="ticket" />;
  if (!data) return error ? <LoadFailed what="ticket" error={error} retry={refetch} /> : <PageLoading />;
  if (!allMacros) return <PageLoading />;

  async function submit(input: TicketValues, image: File | null) {
    try {
      // No new image: send none, and the server keeps the old one.
      await updateTicket({ variables: image ? { id, input, image } : { id, input } });
    } catch (error) {
      console.error(image ? 'Failed to update ticket image' : 'Failed to update ticket', error);
      throw error;
    }
    void navigate(`/view/ticket/${id}`);
  }

  return (
    <FormPage title={`Edit Ticket #${id}`} subtitle="Choose a new image only if you want to replace the current one." wide>
      <TicketForm
        key={id}
        ticket={data.ticket}
        macros={data.macros.nodes}
        assignee={me}
        submitLabel="Save Ticket"
        onSubmit={submit}
        onCancel={() => navigate(`/view/ticket/${id}`)}
      />
    </FormPage>
  );
}

export default function EditTicketPage() {
  const id = routeId(useParams().ticketId);
  return id ? <EditTicketScreen id={id} /> : <NotFoundPanel what="ticket" />;
}
