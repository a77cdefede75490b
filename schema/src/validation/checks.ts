/**
 * The small checks every validation rule builds on (a field's length, NUL and control characters, collecting
 * failed checks into field errors). Internal to validation/: the entry (rules.ts) re-exports only hasNul and
 * FieldErrors, through core.ts.
 */
/** C0 controls and DEL: never part of a name. */
export const isControl = (c: string) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;

/** Field name -> list of messages; the shape both REST bodies and GraphQL extensions carry. */
export type FieldErrors = Record<string, string[]>;

/**
 * No text of this product may hold U+0000: PostgreSQL cannot store it in a text column, and SQLite stops
 * reading a statement at it; either way the request would end in a 500 (found by the fuzzing tests).
 */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

/** Length in user-perceived characters would be kinder, but the spec counts code units like the legacy client. */
export function lengthBetween(value: unknown, min: number, max: number): boolean {
  return typeof value === 'string' && value.length >= min && value.length <= max && !hasNul(value);
}

export type Check = [field: string, ok: boolean, message: string];

export function collect(checks: Check[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, ok, message] of checks) {
    if (!ok) (errors[field] ??= []).push(message);
  }
  return errors;
}
