import type { FieldErrors } from './validation/rules.js';

/** The error codes every transport understands; each maps to one HTTP status and one GraphQL extensions.code. */
export type ErrorCode =
  | 'BAD_USER_INPUT' // 400: validation failed; `fields` says which
  | 'UNAUTHENTICATED' // 401
  | 'LOGIN_FAILED' // 401 with a bare field dict on REST (the contract's auth exception)
  | 'FORBIDDEN' // 403: the record is visible but not the caller's to change
  | 'NOT_FOUND' // 404: unknown id, or a record the caller may not see
  | 'CONFLICT' // 409: a uniqueness rule
  | 'PAYLOAD_TOO_LARGE' // 413
  | 'RATE_LIMITED' // 429
  | 'INTERNAL'; // 500: never carries internal detail

export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  LOGIN_FAILED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
};

/**
 * The one error type of the service layer. GraphQL maps it to `extensions { code, fields, field }`,
 * REST to a status and a JSON body (see gateway/src/rest/errors.ts).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  /** Seconds to wait, for RATE_LIMITED. */
  readonly retryAfter?: number;
  /** What a CONFLICT found instead (e.g. `currentVersion`, `assigneeId` of a ticket): GraphQL extensions as they are. */
  readonly details?: Readonly<Record<string, number | string | null>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fields?: FieldErrors; retryAfter?: number; details?: Readonly<Record<string, number | string | null>> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = options.fields;
    this.retryAfter = options.retryAfter;
    this.details = options.details;
  }

  /** The first field named, for clients that show one error per form. */
  get field(): string | undefined {
    return this.fields ? Object.keys(this.fields)[0] : undefined;
  }

  /**
   * The same error with its fields under a transport's own names (`{ macroId: 'apply_macro' }` for REST); names not
   * listed stay. Transports call this in their adapters: the services name fields once, their own way.
   */
  withFieldNames(names: Readonly<Record<string, string>>): AppError {
    if (!this.fields) return this;
    const fields: FieldErrors = {};
    for (const [name, messages] of Object.entries(this.fields)) (fields[names[name] ?? name] ??= []).push(...messages);
    return new AppError(this.code, this.message, { fields, retryAfter: this.retryAfter, details: this.details });
  }

  static validation(fields: FieldErrors): AppError {
    const first = Object.values(fields)[0]?.[0] ?? 'Invalid input';
    return new AppError('BAD_USER_INPUT', first, { fields });
  }
  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }
  static forbidden(message = 'Forbidden'): AppError {
    return new AppError('FORBIDDEN', message);
  }
  static unauthenticated(): AppError {
    return new AppError('UNAUTHENTICATED', 'Unauthorized');
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
