import './Badges.css';

/** Type and priority as small coloured pills; the text stays the value itself. */
export function TypeBadge({ type }: { type: string }) {
  return <span className={`badge badge-type-${type.toLowerCase()}`}>{type}</span>;
}

export function PriorityBadge({ priority }: { priority: string }) {
  return <span className={`badge badge-priority-${priority.toLowerCase()}`}>{priority}</span>;
}

/** OPEN, PENDING, SOLVED as a pill with the word people use ("Open", "Pending", "Solved"). */
export const STATUS_LABELS: Record<string, string> = { OPEN: 'Open', PENDING: 'Pending', SOLVED: 'Solved' };

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-status-${status.toLowerCase()}`}>{STATUS_LABELS[status] ?? status}</span>;
}
