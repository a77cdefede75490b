import { useNavigate } from 'react-router-dom';
import { MacroForm } from './MacroForm';

/** macro/create: the same form as the modal, as a page; after create the agent goes to the dashboard. */
export default function CreateMacroPage() {
  const navigate = useNavigate();
  return (
    <section className="page page-narrow card">
      <header className="page-header">
        <h1>Create Macro</h1>
        <p className="page-subtitle">Save a canned reply you can apply to tickets.</p>
      </header>
      <MacroForm onSaved={() => navigate('/view/tickets/all')} onCancel={() => navigate(-1)} />
    </section>
  );
}
