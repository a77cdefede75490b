import { MESSAGES, NO_MACRO_ID } from '@fulcrum/schema/validation';
import { graphql, useFragment, type FragmentType } from '../gql';
import type { MacroValues } from './MacroForm';
import './macros.css';

export const MacroCard_macro = graphql(`
  fragment MacroCard_macro on Macro {
    id
    ownerId
    name
    description
  }
`);

interface MacroCardProps {
  macro: FragmentType<typeof MacroCard_macro>;
  onEdit: (macro: MacroValues) => void;
  onDelete: (macro: MacroValues) => void;
}

export function MacroCard(props: MacroCardProps) {
  const macro = useFragment(MacroCard_macro, props.macro);
  const values = { id: macro.id, name: macro.name, description: macro.description };
  // Macro 1 ("No Macro") can be neither edited nor deleted: its buttons are disabled, with the spec's reason shown
  // under them (as another agent's customer is, in CustomerRow), instead of opening a modal that can only refuse.
  const permanent = macro.id === NO_MACRO_ID;
  const reasonId = `macro-${macro.id}-permanent`;
  const disabled = permanent ? { disabled: true, title: MESSAGES.macroPermanent, 'aria-describedby': reasonId } : {};
  return (
    <article className="card macro-card" aria-labelledby={`macro-${macro.id}`}>
      <div className="macro-meta">
        <span>Id #{macro.id}</span>
        <span>{macro.ownerId === null || macro.ownerId === undefined ? 'Built-in' : `User #${macro.ownerId}`}</span>
      </div>
      <h2 id={`macro-${macro.id}`} className="macro-name">
        {macro.name}
      </h2>
      <p className="macro-description">{macro.description}</p>
      <div className="row-actions">
        <button
          type="button"
          className="button button-small button-secondary"
          onClick={() => props.onEdit(values)}
          aria-label={`Edit ${macro.name}`}
          {...disabled}
        >
          Edit
        </button>
        <button
          type="button"
          className="button button-small button-danger-ghost"
          onClick={() => props.onDelete(values)}
          aria-label={`Delete ${macro.name}`}
          {...disabled}
        >
          Delete
        </button>
      </div>
      {permanent && (
        <p className="muted macro-permanent" id={reasonId}>
          {MESSAGES.macroPermanent}
        </p>
      )}
    </article>
  );
}
