import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { MESSAGES, type FieldErrors } from '@fulcrum/schema/validation';

/** What a form needs to know about a failed operation. */
export interface OperationFailure {
  /** extensions.code of the first GraphQL error, or INTERNAL / NETWORK for transport failures. */
  code: string;
  /** The first error's message (already safe to show: the server never sends internals). */
  message: string;
  /** extensions.fields merged over all errors: { fieldName: [messages] }. */
  fields: FieldErrors;
}

interface GraphQLErrorLike {
  message: string;
  extensions?: Record<string, unknown>;
}

function fromGraphQLErrors(errors: readonly GraphQLErrorLike[]): OperationFailure {
  const fields: FieldErrors = {};
  for (const error of errors) {
    const extra = error.extensions?.fields as FieldErrors | undefined;
    if (extra) for (const [name, list] of Object.entries(extra)) (fields[name] ??= []).push(...list);
  }
  const first = errors[0];
  const rawCode = first?.extensions?.code;
  const code = typeof rawCode === 'string' ? rawCode : 'INTERNAL';
  const message = code === 'INTERNAL' || code === 'INTERNAL_SERVER_ERROR' ? MESSAGES.serverError : (first?.message ?? MESSAGES.serverError);
  return { code, message, fields };
}

/** Turns whatever Apollo threw into one shape; 5xx and network failures read "Something went wrong. Please try again". */
export function describeError(error: unknown): OperationFailure {
  if (CombinedGraphQLErrors.is(error)) return fromGraphQLErrors(error.errors);
  if (ServerError.is(error)) {
    if (error.statusCode < 500) {
      try {
        const body = JSON.parse(error.bodyText) as { errors?: GraphQLErrorLike[] };
        if (body.errors?.length) return fromGraphQLErrors(body.errors);
      } catch {
        /* not JSON: fall through */
      }
    }
    return { code: 'INTERNAL', message: MESSAGES.serverError, fields: {} };
  }
  return { code: 'NETWORK', message: MESSAGES.serverError, fields: {} };
}

/**
 * A screen's record is gone: never there, or deleted since it was shown (a live event evicts it and the refetch
 * says NOT_FOUND; Apollo keeps the last data next to the error, so the data alone does not tell).
 */
export function isGone(error: unknown, hasData: boolean): boolean {
  return !!error && (!hasData || describeError(error).code === 'NOT_FOUND');
}

/** Renames the server's field names (the GraphQL input's: requesterId, macroId) to a form's own (requester, macro). */
export function renameFields(fields: FieldErrors, names: Record<string, string>): FieldErrors {
  const out: FieldErrors = {};
  for (const [name, list] of Object.entries(fields)) (out[names[name] ?? name] ??= []).push(...list);
  return out;
}
