/**
 * ISO 8601 durations of days, hours, minutes and seconds (`P3D`, `PT4H`, `P1DT2H`, `PT90S`), the values of
 * WITHIN_LAST and MORE_THAN_AGO. Years, months and weeks are refused: their length depends on the calendar, and a
 * condition means the same thing in SQL and in memory only with fixed lengths. Shared with web/ (no imports).
 */

const DURATION = /^P(?:(\d{1,6})D)?(?:T(?:(\d{1,7})H)?(?:(\d{1,9})M)?(?:(\d{1,11})S)?)?$/;
/** The longest duration taken: 100 years of days (every instant the database can hold is within it). */
export const MAX_DURATION_MS = 36_500 * 86_400_000;

/** The duration in milliseconds, or null when `text` is not one of the forms above or longer than MAX_DURATION_MS. */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [days, hours, minutes, seconds] = m.slice(1).map((part) => Number(part ?? 0));
  const ms = (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000;
  return ms <= MAX_DURATION_MS ? ms : null;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 instant with its offset (`2026-12-01T09:00:00Z`) in ms since the epoch, or null. */
export function parseInstant(text: string): number | null {
  if (!INSTANT.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}
