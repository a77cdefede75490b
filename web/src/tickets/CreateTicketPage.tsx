import { useMutation, useQuery } from '@apollo/client/react';
import { useNavigate } from 'react-router-dom';
import { addTicketToList } from '../apollo/cachedLists';
import { useAllPages } from '../apollo/useAllPages';
import { TicketForm, type TicketPlacement, type TicketValues } from './TicketForm';
import { useAssignmentOptions } from './assignmentOptions';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import { useSignedInUser } from '../app/session';
import { FormPage } from '../ui/FormPage';

const CREATE_TICKET_PAGE = graphql(`
  query CreateTicketPage($after: String) {
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

const CREATE_TICKET = graphql(`
  mutation CreateTicket($input: TicketInput!, $image: Upload, $teamId: Int, $assigneeId: Int) {
    createTicket(input: $input, image: $image, teamId: $teamId, assigneeId: $assigneeId) {
      id
      ...TicketRow_ticket
      ...TicketDetail_ticket
      ...TicketForm_ticket
      ...TicketStatusControl_ticket
      ...TicketAssignment_ticket
    }
  }
`);

export default function CreateTicketPage() {
  const me = useSignedInUser();
  const navigate = useNavigate();
  const { data, error, refetch, fetchMore } = useQuery(CREATE_TICKET_PAGE);
  const allMacros = useAllPages(data?.macros, fetchMore);
  const assignment = useAssignmentOptions();
  const [createTicket] = useMutation(CREATE_TICKET, {
    update(cache, { data: result }) {
      // The dashboard's list (if loaded) gains the new ticket on top; its count goes up by one.
      if (result) addTicketToList(cache, result.createTicket.id);
    },
  });

  if (!data) return error ? <LoadFailed what="macros for the form" error={error} retry={refetch} /> : <PageLoading />;
  if (!allMacros) return <PageLoading />;
  if (!assignment.options)
    return assignment.error ? <LoadFailed what="teams for the form" error={assignment.error} retry={assignment.refetch} /> : <PageLoading />;

  async function submit(input: TicketValues, image: File | null, placement: TicketPlacement) {
    try {
      await createTicket({ variables: { input, image, ...placement } });
    } catch (error) {
      console.error('Failed to create ticket', error);
      throw error;
    }
    void navigate('/view/tickets/all');
  }

  return (
    <FormPage title="Create Ticket" subtitle="Log a customer's request and attach a screenshot." wide>
      <TicketForm
        macros={data.macros.nodes}
        assignee={me}
        placement={assignment.options}
        submitLabel="Create Ticket"
        onSubmit={submit}
        onCancel={() => navigate('/view/tickets/all')}
      />
    </FormPage>
  );
}
