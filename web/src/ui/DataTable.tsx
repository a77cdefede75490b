import type { ReactNode } from 'react';
import './table.css';

interface DataTableProps {
  /** Extra class of the table (column widths), after `data-table`. */
  className: string;
  /** The table's accessible name; shown above it when `captionShown`, else for screen readers only. */
  caption: ReactNode;
  captionShown?: boolean;
  /** Column headers; a last, unnamed column holds each row's buttons ("Actions" for screen readers). */
  columns: readonly string[];
  /** The rows; when `empty` is given instead, a card saying so replaces the table. */
  children: ReactNode;
  empty?: string;
}

/** A card holding one table of records (tokens, endpoints, deliveries): caption, column headers, an actions column. */
export function DataTable({ className, caption, captionShown = false, columns, children, empty }: DataTableProps) {
  if (empty)
    return (
      <div className="card empty-state">
        <p>{empty}</p>
      </div>
    );
  return (
    <div className="card table-card">
      <table className={`data-table ${className}`}>
        <caption className={captionShown ? undefined : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
