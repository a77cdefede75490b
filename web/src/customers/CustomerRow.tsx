import { graphql, useFragment, type FragmentType } from '../gql';
import type { CustomerValues } from './CustomerForm';
import { useSignedInUser } from '../app/session';
import '../ui/table.css';

export const CustomerRow_customer = graphql(`
  fragment CustomerRow_customer on Customer {
    id
    ownerId
    name
    email
  }
`);

interface CustomerRowProps {
  customer: FragmentType<typeof CustomerRow_customer>;
  onEdit: (customer: CustomerValues) => void;
  onDelete: (customer: CustomerValues) => void;
}

export function CustomerRow(props: CustomerRowProps) {
  const customer = useFragment(CustomerRow_customer, props.customer);
  const me = useSignedInUser();
  const values = { id: customer.id, name: customer.name, email: customer.email };
  // The directory is shared, but only the owner may change a customer.
  const mine = customer.ownerId === me.id;
  const notYours = mine ? undefined : 'Only the owning agent can change this customer';
  return (
    <tr>
      <td>
        <span className="cell-label">Id #</span>
        {customer.id}
      </td>
      <td>
        <span className="cell-label">Assignee #</span>
        {customer.ownerId}
      </td>
      <td>
        <span className="cell-label">Name</span>
        {customer.name}
      </td>
      <td>
        <span className="cell-label">Email</span>
        {customer.email}
      </td>
      <td>
        <span className="cell-label">Options</span>
        <span className="row-actions">
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => props.onEdit(values)}
            aria-label={`Edit ${customer.name}`}
            disabled={!mine}
            title={notYours}
          >
            Edit
          </button>
          <button
            type="button"
            className="button button-small button-danger-ghost"
            onClick={() => props.onDelete(values)}
            aria-label={`Delete ${customer.name}`}
            disabled={!mine}
            title={notYours}
          >
            Delete
          </button>
        </span>
      </td>
    </tr>
  );
}
