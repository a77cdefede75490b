import type { Reference } from '@apollo/client';
import { useMutation } from '@apollo/client/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { VIEW_MESSAGES, checkViewName } from '@fulcrum/schema/validation';
import { describeError } from '../apollo/errors';
import { graphql } from '../gql';
import type { TicketFilter, ViewScope } from '../gql/graphql';
import { ViewSidebar_view, viewHref } from './ViewSidebar';

const CREATE_VIEW = graphql(`
  mutation CreateView($input: ViewInput!) {
    createView(input: $input) {
      id
      name
      scope
      shared
      count
      ...ViewSidebar_view
    }
  }
`);

const SCOPES: readonly (readonly [ViewScope, string])[] = [
  ['MINE', 'My tickets'],
  ['TEAM_UNASSIGNED', 'Unassigned in a team'],
  ['TEAM', 'A team’s tickets'],
  ['ALL', 'Every ticket I may read'],
];

/**
 * "Save as view": the list's current search and chips saved with a scope, personal or shared with the
 * team. The new view is added to the cached `views` from the answer and selected.
 */
export function SaveViewForm(props: { filter: TicketFilter; teams: { id: number; name: string }[] }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ViewScope>('MINE');
  const [teamId, setTeamId] = useState<number | null>(props.teams[0]?.id ?? null);
  const [shared, setShared] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formId = useId();
  const nameField = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const [save, { loading }] = useMutation(CREATE_VIEW, {
    update(cache, { data }) {
      if (!data) return;
      const ref = cache.writeFragment({ fragment: ViewSidebar_view, data: data.createView, fragmentName: 'ViewSidebar_view' });
      // The live counts may have put it in the list already (live/viewCounts.ts).
      cache.modify<{ views: Reference[] }>({
        fields: {
          views: (existing = [], { readField }) =>
            ref && !existing.some((other) => readField('id', other) === data.createView.id) ? [...existing, ref] : existing,
        },
      });
    },
  });
  const teamScope = scope === 'TEAM' || scope === 'TEAM_UNASSIGNED';
  // Opening the form moves the focus to its first field (the button that opened it is gone).
  useEffect(() => {
    if (open) nameField.current?.focus();
  }, [open]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (checkViewName(name) === null) {
      setErrors({ name: VIEW_MESSAGES.name });
      nameField.current?.focus();
      return;
    }
    setErrors({});
    const { assignedToMe: _mine, ...filter } = props.filter;
    try {
      const { data } = await save({ variables: { input: { name, scope, filter, teamId: teamScope ? teamId : null, shared: teamScope && shared } } });
      if (!data) return;
      setOpen(false);
      setName('');
      await navigate(viewHref(data.createView.id));
    } catch (error) {
      const failure = describeError(error);
      const fields = Object.fromEntries(Object.entries(failure.fields).map(([field, messages]) => [field, messages[0]]));
      setErrors(Object.keys(fields).length ? fields : { form: failure.message });
    }
  }

  if (!open) {
    return (
      <button type="button" className="button button-link" aria-expanded={false} aria-controls={formId} onClick={() => setOpen(true)}>
        Save as view
      </button>
    );
  }
  const other = Object.entries(errors).filter(([field]) => field !== 'name');
  return (
    <form id={formId} className="save-view-form" aria-label="Save as view" onSubmit={submit} noValidate>
      <div className="save-view-field">
        <label htmlFor={`${formId}-name-input`}>View name</label>
        <input
          id={`${formId}-name-input`}
          ref={nameField}
          value={name}
          maxLength={60}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${formId}-name` : undefined}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      {errors.name && (
        <p id={`${formId}-name`} className="field-error">
          {errors.name}
        </p>
      )}
      <div className="save-view-field">
        <label htmlFor={`${formId}-scope`}>Scope</label>
        <select id={`${formId}-scope`} value={scope} onChange={(event) => setScope(event.target.value as ViewScope)}>
          {SCOPES.filter(([value]) => props.teams.length || (value !== 'TEAM' && value !== 'TEAM_UNASSIGNED')).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {teamScope && (
        <>
          <div className="save-view-field">
            <label htmlFor={`${formId}-team`}>Team</label>
            <select id={`${formId}-team`} value={teamId ?? ''} onChange={(event) => setTeamId(Number(event.target.value))}>
              {props.teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </select>
          </div>
          <label className="checkbox-label">
            <input type="checkbox" checked={shared} onChange={(event) => setShared(event.target.checked)} />
            <span>Share with the team</span>
          </label>
        </>
      )}
      {other.length > 0 && (
        <p className="form-error" role="alert">
          {other.map(([, message]) => message).join(' ')}
        </p>
      )}
      <div className="save-view-actions">
        <button type="submit" className="button button-primary button-small" disabled={loading}>
          {loading ? 'Saving…' : 'Save view'}
        </button>
        <button type="button" className="button button-secondary button-small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
