import { useNavigate } from 'react-router-dom';
import { MacroForm } from './MacroForm';
import { FormPage } from '../ui/FormPage';

/** macro/create: the same form as the modal, as a page; after create the agent goes to the dashboard. */
export default function CreateMacroPage() {
  const navigate = useNavigate();
  return (
    <FormPage title="Create Macro" subtitle="Save a canned reply you can apply to tickets.">
      <MacroForm onSaved={() => navigate('/view/tickets/all')} onCancel={() => navigate(-1)} />
    </FormPage>
  );
}
