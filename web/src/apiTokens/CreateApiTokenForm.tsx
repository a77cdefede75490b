import { useEffect, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { API_TOKEN_LIMITS, validateApiToken } from '@fulcrum/schema/validation';
import { graphql } from '../gql';
import { Field } from '../ui/Field';
import { FormActions } from '../ui/FormActions';
import { FormError, useFormState } from '../ui/useFormState';
import { addApiTokenToList } from './cache';
import '../ui/settings.css';
import './apiTokens.css';

const CREATE_API_TOKEN = graphql(`
  mutation CreateApiToken($input: ApiTokenInput!) {
    createApiToken(input: $input) {
      secret
      token {
        id
        ...ApiTokenRow_token
      }
    }
  }
`);

/** Name, access (READ; READ and WRITE; or those and WEBHOOKS) and lifetime; hands the new secret to `onCreated`, which shows it once. */
export function CreateApiTokenForm({ onCreated }: { onCreated: (created: { name: string; secret: string }) => void }) {
  const [name, setName] = useState('');
  const [access, setAccess] = useState<'READ' | 'WRITE' | 'WEBHOOKS'>('READ');
  const [days, setDays] = useState(String(API_TOKEN_LIMITS.expiresInDays.default));
  const form = useFormState();
  const [createApiToken] = useMutation(CREATE_API_TOKEN, {
    update(cache, { data }) {
      if (data) addApiTokenToList(cache, data.createApiToken.token.id);
    },
  });

  const expiresInDays = /^\d+$/.test(days.trim()) ? Number(days.trim()) : Number.NaN;
  const input = { name, scopes: [access], expiresInDays };
  // After a submit, a field showing an error is checked again as it changes (useFormState's rule).
  useEffect(() => form.recheck({ name, scopes: access, expiresInDays: days }, validateApiToken(input)));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!form.check(validateApiToken(input))) return;
    let secret = '';
    const ok = await form.run(async () => {
      const result = await createApiToken({ variables: { input } });
      secret = result.data?.createApiToken.secret ?? '';
    });
    if (ok && secret) onCreated({ name: name.trim(), secret });
  }

  return (
    <form className="form card token-form" onSubmit={submit} noValidate aria-labelledby="new-token-heading">
      <h2 id="new-token-heading">New token</h2>
      <Field label="Name" errors={form.errors.name} hint="What the token is for, e.g. “Nightly export”." max={API_TOKEN_LIMITS.name.max} length={name.length}>
        {(props) => <input {...props} name="name" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <fieldset className="field token-scopes" aria-describedby={form.errors.scopes ? 'token-scope-errors' : undefined}>
        <legend>Access</legend>
        <label>
          <input type="radio" name="access" value="READ" checked={access === 'READ'} onChange={() => setAccess('READ')} /> Read (READ): queries and
          subscriptions
        </label>
        <label>
          <input type="radio" name="access" value="WRITE" checked={access === 'WRITE'} onChange={() => setAccess('WRITE')} /> Read and write (WRITE): also
          mutations
        </label>
        <label>
          <input type="radio" name="access" value="WEBHOOKS" checked={access === 'WEBHOOKS'} onChange={() => setAccess('WEBHOOKS')} /> Read, write and webhooks
          (WEBHOOKS): also creates and changes webhooks, which stop when the token is revoked or expires
        </label>
        {form.errors.scopes && (
          <ul className="field-errors" id="token-scope-errors">
            {form.errors.scopes.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
      </fieldset>
      <Field label="Expires after (days)" errors={form.errors.expiresInDays} hint={`1 to ${API_TOKEN_LIMITS.expiresInDays.max} days.`}>
        {(props) => <input {...props} name="expiresInDays" inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />}
      </Field>
      <FormError message={form.formError} />
      <FormActions label="Create token" loading={form.loading} />
    </form>
  );
}
