import { useMutation, useQuery } from '@apollo/client/react';
import { removeCustomer } from '../apollo/cachedLists';
import { ConfirmModal } from '../ui/ConfirmModal';
import { LoadMore } from '../ui/LoadMore';
import { RecordListHeader, useRecordDialog } from '../ui/RecordList';
import { CustomerRow } from './CustomerRow';
import { useModals } from '../app/modals';
import { EditCustomerModal, type CustomerValues } from './CustomerForm';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import '../ui/table.css';
import './customers.css';

const CUSTOMERS_PAGE_SIZE = 50;

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

/** view/customers: "(n) Customers", the shared directory; Edit and Delete open modals (the owner's rows only). */
export default function CustomersPage() {
  const { data, error, refetch, fetchMore } = useQuery(CUSTOMERS_PAGE, { variables: { first: CUSTOMERS_PAGE_SIZE } });
  const { openModal } = useModals();
  const dialog = useRecordDialog<CustomerValues>();
  const [deleteCustomer] = useMutation(DELETE_CUSTOMER, {
    update(cache, { data: result }) {
      if (result) removeCustomer(cache, result.deleteCustomer);
    },
  });
  if (!data) return error ? <LoadFailed what="customers" error={error} retry={refetch} /> : <PageLoading />;
  const { totalCount, nodes, pageInfo } = data.customers;
  const deleting = dialog.deleting;

  return (
    <section className="page">
      <RecordListHeader
        eyebrow="Customer directory"
        title={`(${totalCount}) Customers`}
        createLabel="Create Customer"
        onCreate={() => openModal('createCustomer')}
      />
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
              <CustomerRow key={customer.id} customer={customer} onEdit={dialog.edit} onDelete={dialog.remove} />
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
      {dialog.editing && <EditCustomerModal customer={dialog.editing} onClose={dialog.close} />}
      {deleting && (
        <ConfirmModal
          title="Delete Customer"
          question="Are you sure you would like to delete this customer?"
          confirmLabel="Delete Customer"
          onClose={dialog.close}
          onConfirm={async () => {
            await deleteCustomer({ variables: { id: deleting.id } });
            dialog.close();
          }}
        />
      )}
    </section>
  );
}
