/** Type and priority as small coloured pills; the text stays the value itself. */
export function TypeBadge({ type }: { type: string }) {
  return <span className={`badge badge-type-${type.toLowerCase()}`}>{type}</span>;
}

export function PriorityBadge({ priority }: { priority: string }) {
  return <span className={`badge badge-priority-${priority.toLowerCase()}`}>{priority}</span>;
}
