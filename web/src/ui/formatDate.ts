/**
 * Every date the app shows goes through here: one style, in the viewer's own locale and time zone
 * (Intl.DateTimeFormat with `undefined` as the locale is the browser's). "26 Nov 2026, 14:05" in en-GB,
 * "Nov 26, 2026, 2:05 PM" in en-US. The formatters are made once; Intl formatters are costly to create.
 */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** The same with seconds, where attempts seconds apart must be told apart (the webhook delivery log). */
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** The same without the time, for values that are days (a token's expiry). */
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

type DateInput = string | number | Date;

export function formatDateTime(value: DateInput, options: { seconds?: boolean } = {}): string {
  return (options.seconds ? dateTimeSeconds : dateTime).format(new Date(value));
}

export function formatDay(value: DateInput): string {
  return dateOnly.format(new Date(value));
}
