import { useSyncExternalStore } from 'react';
import { formatDateTime, formatRelative } from './formatDate';

/** Relative times move on every this often; one timer for the whole page, however many times it shows. */
const TICK_MS = 30_000;

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** "2 min. ago" (kept current), with the exact date and time as its tooltip and machine-readable value. */
export function RelativeTime({ value }: { value: string }) {
  // A time after the last tick (a live entry) reads "now" until the next one.
  const current = useSyncExternalStore(subscribe, () => now);
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {formatRelative(value, current)}
    </time>
  );
}
