import { graphql, useFragment, type FragmentType } from '../gql';
import type { MacroValues } from './MacroForm';

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
        <button type="button" className="button button-small button-secondary" onClick={() => props.onEdit(values)} aria-label={`Edit ${macro.name}`}>
          Edit
        </button>
        <button type="button" className="button button-small button-danger-ghost" onClick={() => props.onDelete(values)} aria-label={`Delete ${macro.name}`}>
          Delete
        </button>
      </div>
    </article>
  );
}
