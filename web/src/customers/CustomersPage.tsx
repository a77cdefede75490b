import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { removeCustomer } from '../apollo/lists';
import { ConfirmModal } from '../ui/ConfirmModal';
import { LoadMore } from '../ui/LoadMore';
import { CustomerRow } from './CustomerRow';
import { useModals } from '../layout/ModalHost';
import { EditCustomerModal, type CustomerValues } from './CustomerForm';
import { graphql } from '../gql';

export const CUSTOMERS_PAGE_SIZE = 50;

const CUSTOMERS_PAGE = graphql(`
  query CustomersPage($first: Int!, $after: String) {
    customers(first: $first, after: $after) {
      totalCount
      nodes {
        id
        ...CustomerRow_customer
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
`);

const DELETE_CUSTOMER = graphql(`
  mutation DeleteCustomer($id: Int!) {
    deleteCustomer(id: $id)
  }
`);

type Dialog = { kind: 'edit' | 'delete'; customer: CustomerValues } | null;

export default function CustomersPage() {
  const { data, fetchMore } = useQuery(CUSTOMERS_PAGE, { variables: { first: CUSTOMERS_PAGE_SIZE } });
  const { openModal } = useModals();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [deleteCustomer] = useMutation(DELETE_CUSTOMER, {
    update(cache, { data: result }) {
      if (result) removeCustomer(cache, result.deleteCustomer);
    },
  });
  if (!data) return null;
  const close = () => setDialog(null);
  const { totalCount, nodes, pageInfo } = data.customers;

  return (
    <section className="page">
      <header className="page-header page-header-row">
        <div>
          <p className="eyebrow">Customer directory</p>
          <h1>({totalCount}) Customers</h1>
        </div>
        <button type="button" className="button button-primary" onClick={() => openModal('createCustomer')}>
          Create Customer
        </button>
      </header>
      <div className="card table-card">
        <table className="data-table customer-table">
          <thead>
            <tr>
              <th scope="col">Id #</th>
              <th scope="col">Assignee #</th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Options</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((customer) => (
              <CustomerRow
                key={customer.id}
                customer={customer}
                onEdit={(values) => setDialog({ kind: 'edit', customer: values })}
                onDelete={(values) => setDialog({ kind: 'delete', customer: values })}
              />
            ))}
          </tbody>
        </table>
      </div>
      <LoadMore
        shown={nodes.length}
        total={totalCount}
        noun="customers"
        hasNextPage={pageInfo.hasNextPage}
        loadMore={() => fetchMore({ variables: { after: pageInfo.endCursor } })}
      />
      {dialog?.kind === 'edit' && <EditCustomerModal customer={dialog.customer} onClose={close} />}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          title="Delete Customer"
          question="Are you sure you would like to delete this customer?"
          confirmLabel="Delete Customer"
          onClose={close}
          onConfirm={async () => {
            await deleteCustomer({ variables: { id: dialog.customer.id } });
            close();
          }}
        />
      )}
    </section>
  );
}
