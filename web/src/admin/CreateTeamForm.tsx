import { useEffect, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { LIMITS, MESSAGES, checkTeamName, type FieldErrors } from '@fulcrum/schema/validation';
import { graphql } from '../gql';
import { Field } from '../ui/Field';
import { FormActions } from '../ui/FormActions';
import { FormError, useFormState } from '../ui/useFormState';
import { addTeamToList } from './cache';
import '../ui/settings.css';

const CREATE_TEAM = graphql(`
  mutation CreateTeam($name: String!) {
    createTeam(name: $name) {
      id
      ...TeamCard_team
    }
  }
`);

/** A new team: its name (the shared rule and messages; a taken name is the server's "already exists"). */
export function CreateTeamForm() {
  const [name, setName] = useState('');
  const form = useFormState();
  const [createTeam] = useMutation(CREATE_TEAM, {
    update(cache, { data }) {
      if (data) addTeamToList(cache, data.createTeam.id);
    },
  });
  const found: FieldErrors = checkTeamName(name) === null ? { name: [MESSAGES.teamName] } : {};
  useEffect(() => form.recheck({ name }, found));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!form.check(found)) return;
    const ok = await form.run(async () => {
      await createTeam({ variables: { name } });
    });
    if (ok) {
      setName('');
      form.setLoading(false);
    }
  }

  return (
    <form className="form card token-form" onSubmit={submit} noValidate aria-labelledby="new-team-heading">
      <h2 id="new-team-heading">New team</h2>
      <Field label="Team name" errors={form.errors.name} hint="1 to 50 characters, unique." max={LIMITS.teamName.max} length={name.length}>
        {(props) => <input {...props} name="name" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <FormError message={form.formError} />
      <FormActions label="Create team" loading={form.loading} />
    </form>
  );
}
