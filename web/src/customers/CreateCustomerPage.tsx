import { useNavigate } from 'react-router-dom';
import { CustomerForm } from './CustomerForm';
import { FormPage } from '../ui/FormPage';

/** customer/create: the same form as the modal, as a page; after create the agent goes to the dashboard. */
export default function CreateCustomerPage() {
  const navigate = useNavigate();
  return (
    <FormPage title="Create Customer" subtitle="Add a requester to the shared customer directory.">
      <CustomerForm onSaved={() => navigate('/view/tickets/all')} onCancel={() => navigate(-1)} />
    </FormPage>
  );
}
