import { useEffect, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { bothFilled, LIMITS, MESSAGES, validateMacro } from '@fulcrum/schema/validation';
import { addMacroToList } from '../apollo/cachedLists';
import { Field } from '../ui/Field';
import { Modal } from '../ui/Modal';
import { graphql } from '../gql';
import { FormError, useFormState } from '../ui/useFormState';
import { FormActions } from '../ui/FormActions';

const CREATE_MACRO = graphql(`
  mutation CreateMacro($input: MacroInput!) {
    createMacro(input: $input) {
      id
      ...MacroCard_macro
      ...TicketForm_macro
    }
  }
`);

const UPDATE_MACRO = graphql(`
  mutation UpdateMacro($id: Int!, $input: MacroInput!) {
    updateMacro(id: $id, input: $input) {
      id
      ...MacroCard_macro
      ...TicketForm_macro
    }
  }
`);

export interface MacroValues {
  id: number;
  name: string;
  description: string;
}

interface MacroFormProps {
  /** Absent to create a macro. */
  macro?: MacroValues;
  onSaved: () => void;
  onCancel?: () => void;
}

/**
 * Name and description; the submit looks disabled and a hint shows until both are filled.
 * A deliberate parallel of customers/CustomerForm.tsx (see there for why the two stay apart).
 */
export function MacroForm({ macro, onSaved, onCancel }: MacroFormProps) {
  const [name, setName] = useState(macro?.name ?? '');
  const [description, setDescription] = useState(macro?.description ?? '');
  const form = useFormState();
  const [createMacro] = useMutation(CREATE_MACRO, {
    update(cache, { data }) {
      if (data) addMacroToList(cache, data.createMacro.id);
    },
  });
  const [updateMacro] = useMutation(UPDATE_MACRO);
  const filled = bothFilled(name, description);
  // After a submit, a field showing an error is checked again as it changes (useFormState's rule).
  useEffect(() => form.recheck({ name, description }, validateMacro({ name, description })));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!filled) return;
    if (!form.check(validateMacro({ name, description }))) return;
    const input = { name, description };
    const ok = await form.run(async () => {
      if (macro) await updateMacro({ variables: { id: macro.id, input } });
      else await createMacro({ variables: { input } });
    });
    if (ok) onSaved();
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="Name" errors={form.errors.name} max={LIMITS.macroName.max} length={name.length}>
        {(props) => <input {...props} name="name" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Description" errors={form.errors.description} max={LIMITS.macroDescription.max} length={description.length}>
        {(props) => <textarea {...props} name="description" rows={5} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      {!filled && <p className="form-hint">{MESSAGES.macroHint}</p>}
      <FormError message={form.formError} />
      <FormActions label={macro ? 'Save Macro' : 'Create Macro'} loading={form.loading} disabled={!filled} onCancel={onCancel} />
    </form>
  );
}

export function CreateMacroModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Create Macro" onClose={onClose}>
      <MacroForm onSaved={onClose} onCancel={onClose} />
    </Modal>
  );
}

export function EditMacroModal({ macro, onClose }: { macro: MacroValues; onClose: () => void }) {
  return (
    <Modal title="Edit Macro" onClose={onClose}>
      <MacroForm macro={macro} onSaved={onClose} onCancel={onClose} />
    </Modal>
  );
}
