import { useEffect, useRef, useState } from 'react';
import { loadProblem, problemText } from '../apollo/errors';
import './forms.css';
import './LoadMore.css';

interface LoadMoreProps {
  /** How many records the screen shows, and how many the whole list holds. */
  shown: number;
  total: number;
  /** What the list holds, plural ("customers"). */
  noun: string;
  hasNextPage: boolean;
  /** Fetches the next page (Apollo's fetchMore with the last endCursor); the cache appends it. */
  loadMore: () => Promise<unknown>;
}

/**
 * The foot of a paginated list: "Showing 50 of 130 customers" (announced politely when it changes) and a
 * "Load more" button, busy while the next page loads (aria-disabled rather than disabled, so it keeps focus). When the last page arrives the button goes away, so focus
 * moves to the count instead of being lost; a failure says so and leaves the button to try again.
 */
export function LoadMore({ shown, total, noun, hasNextPage, loadMore }: LoadMoreProps) {
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  /** The button had the focus when the last page was asked for: the count takes it once the button is gone. */
  const keepFocus = useRef(false);

  useEffect(() => {
    if (!hasNextPage && keepFocus.current) {
      keepFocus.current = false;
      status.current?.focus();
    }
  }, [hasNextPage]);

  async function next() {
    if (loading) return;
    setLoading(true);
    setFailed(null);
    keepFocus.current = document.activeElement === button.current;
    try {
      await loadMore();
    } catch (error) {
      keepFocus.current = false;
      setFailed(problemText(loadProblem(error), `next ${noun}`, error).detail);
    } finally {
      setLoading(false);
    }
  }

  if (total === 0) return null;
  return (
    <div className="load-more">
      <p className="load-more-count" role="status" tabIndex={-1} ref={status}>
        Showing {shown} of {total} {noun}
      </p>
      {failed && (
        <p className="form-error" role="alert">
          {failed}
        </p>
      )}
      {hasNextPage && (
        <button ref={button} type="button" className="button button-secondary" onClick={next} aria-disabled={loading} aria-busy={loading}>
          {loading ? 'Loading...' : `Load more ${noun}`}
        </button>
      )}
    </div>
  );
}
