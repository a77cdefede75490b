import { useEffect, useMemo, useState } from 'react';
import {
  DEFAULT_TICKET_PRIORITY,
  DEFAULT_TICKET_TYPE,
  LIMITS,
  MESSAGES,
  NO_MACRO_ID,
  TICKET_PRIORITIES,
  TICKET_TYPES,
  validateTicket,
  type FieldErrors,
  type TicketPriority,
  type TicketType,
} from '@fulcrum/schema/validation';
import { Field } from '../ui/Field';
import { graphql, useFragment, type FragmentType } from '../gql';
import type { SessionUser } from '../app/session';
import { FormError, useFormState } from '../ui/useFormState';
import { FormActions } from '../ui/FormActions';
import { RequesterPicker } from './RequesterPicker';
import { memberChoices, type AssignmentOptions } from './assignmentOptions';
import './tickets.css';

export const TicketForm_ticket = graphql(`
  fragment TicketForm_ticket on Ticket {
    id
    title
    type
    priority
    macroId
    requesterId
    assignee {
      id
      username
    }
    requester {
      id
      ...RequesterPicker_customer
    }
    description
    image {
      id
      url
    }
  }
`);

export const TicketForm_macro = graphql(`
  fragment TicketForm_macro on Macro {
    id
    name
  }
`);

export interface TicketValues {
  title: string;
  type: TicketType;
  priority: TicketPriority;
  macroId: number;
  requesterId: number;
  description: string;
}

/** Where a new ticket goes: both omitted is a private ticket of the creator; a team without assignee is unassigned. */
export interface TicketPlacement {
  teamId?: number;
  assigneeId?: number;
}

/** The Assignee select's value: the viewer, nobody (a team's unassigned ticket), or a member's id. */
const ME = 'me';
const UNASSIGNED = '';

interface TicketFormProps {
  ticket?: FragmentType<typeof TicketForm_ticket>;
  macros: readonly FragmentType<typeof TicketForm_macro>[];
  assignee: SessionUser;
  /** On create: the teams and agents to choose from (the Team and Assignee selects). */
  placement?: AssignmentOptions;
  submitLabel: string;
  /** Image is null when none was chosen: required on create, "keep the old one" on edit. */
  onSubmit: (values: TicketValues, image: File | null, placement: TicketPlacement) => Promise<void>;
  onCancel: () => void;
}

function imageErrors(file: File | null, required: boolean): FieldErrors {
  if (!file) return required ? { image: [MESSAGES.ticketImage] } : {};
  if (!file.type.startsWith('image/')) return { image: [MESSAGES.imageType] };
  if (file.size > LIMITS.imageBytes) return { image: [MESSAGES.imageSize] };
  return {};
}

export function TicketForm(props: TicketFormProps) {
  const ticket = useFragment(TicketForm_ticket, props.ticket);
  const macros = useFragment(TicketForm_macro, props.macros);
  const creating = !ticket;

  const [title, setTitle] = useState(ticket?.title ?? '');
  const [type, setType] = useState<TicketType>(ticket?.type ?? DEFAULT_TICKET_TYPE);
  const [priority, setPriority] = useState<TicketPriority>(ticket?.priority ?? DEFAULT_TICKET_PRIORITY);
  const [macroId, setMacroId] = useState(String(ticket?.macroId ?? NO_MACRO_ID));
  const [requesterId, setRequesterId] = useState(ticket ? String(ticket.requesterId) : '');
  const [description, setDescription] = useState(ticket?.description ?? '');
  const [image, setImage] = useState<File | null>(null);
  const form = useFormState();
  const me = props.assignee;
  // The agent's first team is preselected, and "Me" in it; "No team (private)" when they have none.
  const teams = props.placement?.teams ?? [];
  const [teamId, setTeamId] = useState(() => String(teams.find((team) => team.memberIds.includes(me.id))?.id ?? ''));
  const team = teams.find((t) => String(t.id) === teamId) ?? null;
  const inTeam = !team || team.memberIds.includes(me.id);
  const [assigneeChoice, setAssigneeChoice] = useState(inTeam ? ME : UNASSIGNED);
  const members = team && props.placement ? memberChoices(team, props.placement.names, me.id) : [];
  function chooseTeam(value: string) {
    setTeamId(value);
    const next = teams.find((t) => String(t.id) === value) ?? null;
    // The choice stays when the new team has it; otherwise "Me" (a member, or no team) or "Unassigned".
    const keeps = next
      ? assigneeChoice === ME
        ? next.memberIds.includes(me.id)
        : assigneeChoice === UNASSIGNED || next.memberIds.includes(Number(assigneeChoice))
      : assigneeChoice === ME;
    if (!keeps) setAssigneeChoice(!next || next.memberIds.includes(me.id) ? ME : UNASSIGNED);
  }

  // "No Macro" (macro 1) is always the first option.
  const macroOptions = useMemo(() => [...macros].sort((a, b) => (a.id === NO_MACRO_ID ? -1 : b.id === NO_MACRO_ID ? 1 : 0)), [macros]);

  const preview = useMemo(() => (image ? URL.createObjectURL(image) : null), [image]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const shownImage = preview ?? ticket?.image?.url ?? null;

  const found: FieldErrors = {
    ...validateTicket({ title, requesterId, description, type, priority }),
    ...imageErrors(image, creating),
  };
  // After a submit, a field showing an error is checked again as it changes (useFormState's rule).
  useEffect(() => form.recheck({ title, requesterId, description, type, priority, image }, found));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!form.check(found)) return;
    const values: TicketValues = {
      title,
      type,
      priority,
      macroId: Number(macroId),
      requesterId: Number(requesterId),
      description,
    };
    const placement: TicketPlacement = team
      ? { teamId: team.id, ...(assigneeChoice === UNASSIGNED ? {} : { assigneeId: assigneeChoice === ME ? me.id : Number(assigneeChoice) }) }
      : {};
    await form.run(() => props.onSubmit(values, image, placement));
  }

  return (
    <form className="form ticket-form" onSubmit={submit} noValidate>
      <div className="form-grid">
        <Field label="Title" errors={form.errors.title} max={LIMITS.ticketTitle.max} length={title.length}>
          {(p) => <input {...p} name="title" value={title} onChange={(e) => setTitle(e.target.value)} />}
        </Field>
        {creating ? (
          <>
            {props.placement && (
              <Field label="Team" errors={form.errors.teamId}>
                {(p) => (
                  <select {...p} name="teamId" value={teamId} onChange={(e) => chooseTeam(e.target.value)}>
                    <option value="">No team (private)</option>
                    {teams.map((option) => (
                      <option key={option.id} value={option.id}>
                        {option.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            <Field label="Assignee" errors={form.errors.assigneeId}>
              {(p) => (
                <select {...p} name="assigneeId" value={assigneeChoice} onChange={(e) => setAssigneeChoice(e.target.value)}>
                  {inTeam && <option value={ME}>Me ({me.username})</option>}
                  {team && <option value={UNASSIGNED}>Unassigned</option>}
                  {members.map((member) => (
                    <option key={member.id} value={member.id}>
                      {member.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </>
        ) : (
          // An edit never moves the ticket (the ticket page's Take and Assign do): its assignee as it is.
          <Field label="Assignee" errors={form.errors.assigneeId}>
            {(p) => (
              <select {...p} name="assigneeId" value={ticket.assignee?.id ?? ''} onChange={() => {}}>
                <option value={ticket.assignee?.id ?? ''}>{ticket.assignee?.username ?? 'Unassigned'}</option>
              </select>
            )}
          </Field>
        )}
        <Field label="Type" errors={form.errors.type}>
          {(p) => (
            <select {...p} name="type" value={type} onChange={(e) => setType(e.target.value as TicketType)}>
              {TICKET_TYPES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Priority" errors={form.errors.priority}>
          {(p) => (
            <select {...p} name="priority" value={priority} onChange={(e) => setPriority(e.target.value as TicketPriority)}>
              {TICKET_PRIORITIES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Apply Macro" errors={form.errors.macroId}>
          {(p) => (
            <select {...p} name="macroId" value={macroId} onChange={(e) => setMacroId(e.target.value)}>
              {macroOptions.map((macro) => (
                <option key={macro.id} value={macro.id}>
                  {macro.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Requester" errors={form.errors.requesterId}>
          {(p) => <RequesterPicker {...p} value={ticket?.requester ?? null} onChange={(customer) => setRequesterId(customer ? String(customer.id) : '')} />}
        </Field>
      </div>
      <Field label="Description" errors={form.errors.description} max={LIMITS.ticketDescription.max} length={description.length}>
        {(p) => <textarea {...p} name="description" rows={6} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <Field label="Image" errors={form.errors.image} hint={creating ? 'PNG, JPEG, GIF or WebP, up to 5 MB.' : 'Leave empty to keep the current image.'}>
        {(p) => <input {...p} type="file" name="image" accept="image/*" onChange={(e) => setImage(e.target.files?.[0] ?? null)} />}
      </Field>
      {shownImage && (
        <figure className="image-preview">
          <img src={shownImage} alt={image ? 'Selected image' : 'Current ticket image'} />
          <figcaption>{image ? image.name : 'Current image'}</figcaption>
        </figure>
      )}
      <FormError message={form.formError} />
      <FormActions label={props.submitLabel} loading={form.loading} onCancel={props.onCancel} />
    </form>
  );
}
