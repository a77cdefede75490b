import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { loadProblem, problemText } from '../apollo/errors';
import { useSession } from '../app/session';
import './forms.css';
import './PageStates.css';

/** How long a load may take before the screen says it is loading: a quick load shows no flash of "Loading…". */
export const LOADING_DELAY_MS = 300;

/** True once `ms` have passed since the component mounted (while `active`; false again when it stops). */
export function useDelayed(active = true, ms = LOADING_DELAY_MS): boolean {
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setPassed(true), ms);
    return () => {
      clearTimeout(timer);
      setPassed(false);
    };
  }, [active, ms]);
  return active && passed;
}

/**
 * What a page shows while its own data loads: nothing at first (SPEC section 2: a page renders nothing until its
 * data has loaded), then a quiet "Loading…" when the load takes longer than a moment. The status region is there
 * from the start, so screen readers announce the text when it appears.
 */
export function PageLoading() {
  const slow = useDelayed();
  return (
    <p className="page-loading" role="status">
      {slow ? 'Loading…' : ''}
    </p>
  );
}

/**
 * The words for `error` and a "Try again" that calls `retry` (Apollo's refetch) and says so while it runs. When the
 * failure was the network's, it also tries again by itself when the browser comes back online.
 */
function useRetry(what: string, error: unknown, retry: () => Promise<unknown>) {
  const problem = loadProblem(error);
  const [retrying, setRetrying] = useState(false);
  const networkFailure = problem === 'offline' || problem === 'unreachable';
  useEffect(() => {
    if (!networkFailure) return;
    const onOnline = () => void retry().catch(() => undefined);
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [networkFailure, retry]);
  const tryAgain = () => {
    if (retrying) return;
    setRetrying(true);
    // A failure shows again through the query's own error.
    retry()
      .catch(() => undefined)
      .finally(() => setRetrying(false));
  };
  const button = (
    <button type="button" className="button button-primary" onClick={tryAgain} aria-disabled={retrying}>
      {retrying ? 'Trying again…' : 'Try again'}
    </button>
  );
  return { problem, ...problemText(problem, what, error), button };
}

interface LoadFailedProps {
  /** The data that failed to load, for the sentence: "tickets", "customers", "ticket". */
  what: string;
  error: unknown;
  /** Asks again (Apollo's refetch). */
  retry: () => Promise<unknown>;
}

/**
 * A page whose data could not be loaded: what happened, what to do, and "Try again". The shell (header, menu)
 * stays around it. Only the server's NOT_FOUND / FORBIDDEN reads "does not exist, or it is not yours" (with the way
 * back instead of a retry); a network failure or a 5xx says what it was and offers the retry.
 */
export function LoadFailed({ what, error, retry }: LoadFailedProps) {
  const { problem, title, detail, button } = useRetry(what, error, retry);
  const me = useSession();
  const back = me ? { to: '/view/tickets/all', label: 'Back to the dashboard' } : { to: '/', label: 'Back to the start' };
  return (
    <section className="page page-narrow card load-failed" role="alert">
      <h1>{title}</h1>
      <p>{detail}</p>
      <div className="form-actions">
        {problem === 'signedOut' ? (
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
        ) : problem === 'gone' ? (
          <Link className="button button-primary" to={back.to}>
            {back.label}
          </Link>
        ) : (
          button
        )}
      </div>
    </section>
  );
}

/**
 * The same words and retry inside a page that keeps its frame (the dashboard keeps its search and filters, so the
 * agent can also go back to the filters that did load).
 */
export function LoadFailedNotice({ what, error, retry }: LoadFailedProps) {
  const { title, detail, button } = useRetry(what, error, retry);
  return (
    <div className="card load-failed-notice" role="alert">
      <h2>{title}</h2>
      <p>{detail}</p>
      {button}
    </div>
  );
}
