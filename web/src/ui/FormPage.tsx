import type { ReactNode } from 'react';

/**
 * A form screen as a card: its heading, a one-line subtitle, then the form (log in, sign up, create customer or
 * macro, create or edit ticket). Narrow unless `wide`.
 */
export function FormPage({
  title,
  subtitle,
  wide = false,
  className,
  children,
}: {
  title: ReactNode;
  subtitle: string;
  wide?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const classes = ['page', wide ? null : 'page-narrow', 'card', className].filter(Boolean).join(' ');
  return (
    <section className={classes}>
      <header className="page-header">
        <h1>{title}</h1>
        <p className="page-subtitle">{subtitle}</p>
      </header>
      {children}
    </section>
  );
}
