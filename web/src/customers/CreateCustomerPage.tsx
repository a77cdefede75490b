import { useNavigate } from 'react-router-dom';
import { CustomerForm } from './CustomerForm';

/** customer/create: the same form as the modal, as a page; after create the agent goes to the dashboard. */
export default function CreateCustomerPage() {
  const navigate = useNavigate();
  return (
    <section className="page page-narrow card">
      <header className="page-header">
        <h1>Create Customer</h1>
        <p className="page-subtitle">Add a requester to the shared customer directory.</p>
      </header>
      <CustomerForm onSaved={() => navigate('/view/tickets/all')} onCancel={() => navigate(-1)} />
    </section>
  );
}
