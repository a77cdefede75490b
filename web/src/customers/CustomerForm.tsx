import { useEffect, useState } from 'react';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { bothFilled, hasErrors, LIMITS, MESSAGES, validateCustomer } from '@fulcrum/schema/validation';
import { describeError } from '../apollo/errors';
import { addCustomerToList } from '../apollo/cachedLists';
import { Field } from '../ui/Field';
import { Modal } from '../ui/Modal';
import { graphql } from '../gql';
import { FormError, useFormState } from '../ui/useFormState';
import { FormActions } from '../ui/FormActions';

const EMAIL_AVAILABLE = graphql(`
  query CustomerEmailAvailable($email: String!, $name: String) {
    customerEmailAvailable(email: $email, name: $name)
  }
`);

const CREATE_CUSTOMER = graphql(`
  mutation CreateCustomer($input: CustomerInput!) {
    createCustomer(input: $input) {
      id
      ...CustomerRow_customer
      ...RequesterPicker_customer
    }
  }
`);

const UPDATE_CUSTOMER = graphql(`
  mutation UpdateCustomer($id: Int!, $input: CustomerInput!) {
    updateCustomer(id: $id, input: $input) {
      id
      ...CustomerRow_customer
      ...RequesterPicker_customer
    }
  }
`);

export interface CustomerValues {
  id: number;
  name: string;
  email: string;
}

interface CustomerFormProps {
  /** Absent to create a customer. */
  customer?: CustomerValues;
  onSaved: () => void;
  onCancel?: () => void;
}

/**
 * Name and email; the submit looks disabled and a hint shows until both are filled.
 * A deliberate parallel of macros/MacroForm.tsx: the two share their shape (two fields, hint, create or edit), not
 * their logic. Creating a customer first asks the server whether the email is free (SPEC section 5) and words its
 * failure as "customerCreateFailed"; a macro has neither, and its second field is a textarea. The shared parts
 * (Field, FormActions, useFormState, Modal) are already one piece each in ui/.
 */
export function CustomerForm({ customer, onSaved, onCancel }: CustomerFormProps) {
  const [name, setName] = useState(customer?.name ?? '');
  const [email, setEmail] = useState(customer?.email ?? '');
  const form = useFormState();
  const client = useApolloClient();
  const [createCustomer] = useMutation(CREATE_CUSTOMER, {
    update(cache, { data }) {
      if (data) addCustomerToList(cache, data.createCustomer.id);
    },
  });
  const [updateCustomer] = useMutation(UPDATE_CUSTOMER);
  const filled = bothFilled(name, email);
  // After a submit, a field showing an error is checked again as it changes (useFormState's rule).
  useEffect(() => form.recheck({ name, email }, validateCustomer({ name, email })));

  async function create() {
    // The uniqueness check of SPEC section 5: asked before creating.
    let available: boolean;
    try {
      const { data } = await client.query({ query: EMAIL_AVAILABLE, variables: { email, name }, fetchPolicy: 'network-only' });
      if (!data) throw new Error('no answer');
      available = data.customerEmailAvailable;
    } catch (caught) {
      console.error(caught);
      form.setFormError(MESSAGES.customerCreateFailed);
      return;
    }
    if (!available) {
      form.setErrors({ email: [MESSAGES.customerUnique] });
      return;
    }
    try {
      await createCustomer({ variables: { input: { name, email } } });
    } catch (caught) {
      const failure = describeError(caught);
      if (hasErrors(failure.fields)) form.setErrors(failure.fields);
      else form.setFormError(failure.code === 'INTERNAL' || failure.code === 'NETWORK' ? MESSAGES.customerCreateFailed : failure.message);
      return;
    }
    onSaved();
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!filled) return;
    if (!form.check(validateCustomer({ name, email }))) return;
    if (customer) {
      if (await form.run(async () => void (await updateCustomer({ variables: { id: customer.id, input: { name, email } } })))) onSaved();
    } else {
      form.setLoading(true);
      await create();
      form.setLoading(false);
    }
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="Name" errors={form.errors.name} max={LIMITS.customerName.max} length={name.length}>
        {(props) => <input {...props} name="name" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Email" errors={form.errors.email}>
        {(props) => <input {...props} type="email" name="email" maxLength={LIMITS.email.max} value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      {!filled && <p className="form-hint">{MESSAGES.customerHint}</p>}
      <FormError message={form.formError} />
      <FormActions label={customer ? 'Save Customer' : 'Create Customer'} loading={form.loading} disabled={!filled} onCancel={onCancel} />
    </form>
  );
}

export function CreateCustomerModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Create Customer" onClose={onClose}>
      <CustomerForm onSaved={onClose} onCancel={onClose} />
    </Modal>
  );
}

export function EditCustomerModal({ customer, onClose }: { customer: CustomerValues; onClose: () => void }) {
  return (
    <Modal title="Edit Customer" onClose={onClose}>
      <CustomerForm customer={customer} onSaved={onClose} onCancel={onClose} />
    </Modal>
  );
}
