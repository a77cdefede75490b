import { CombinedGraphQLErrors, ServerError, ServerParseError } from '@apollo/client/errors';
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
 * Why a screen's data could not be loaded, which decides what the screen says and offers:
 * - `gone`: the server answered NOT_FOUND or FORBIDDEN: the record does not exist, or it is not the viewer's;
 * - `offline`: the browser knows it has no network;
 * - `unreachable`: no answer at all (connection refused or cut, DNS, a proxy that dropped the request);
 * - `server`: an answer, but a broken one (5xx from the gateway or a proxy in front of it, a body that is not JSON,
 *   INTERNAL_SERVER_ERROR);
 * - `signedOut`: UNAUTHENTICATED (the session ended meanwhile);
 * - `refused`: any other refusal; its message is the server's own, safe to show.
 */
export type LoadProblem = 'gone' | 'offline' | 'unreachable' | 'server' | 'signedOut' | 'refused';

export function loadProblem(error: unknown): LoadProblem {
  if (ServerParseError.is(error)) return 'server';
  if (ServerError.is(error) && error.statusCode >= 500) return 'server';
  if (CombinedGraphQLErrors.is(error) || ServerError.is(error)) {
    const { code } = describeError(error);
    if (code === 'NOT_FOUND' || code === 'FORBIDDEN') return 'gone';
    if (code === 'UNAUTHENTICATED') return 'signedOut';
    if (code === 'INTERNAL' || code === 'INTERNAL_SERVER_ERROR') return 'server';
    return 'refused';
  }
  return typeof navigator !== 'undefined' && !navigator.onLine ? 'offline' : 'unreachable';
}

/** The HTTP status of a broken answer (e.g. 502 from a proxy whose gateway is down), when there was one. */
export function httpStatus(error: unknown): number | undefined {
  return ServerError.is(error) ? error.statusCode : ServerParseError.is(error) ? error.statusCode : undefined;
}

export interface ProblemText {
  title: string;
  detail: string;
}

/** What happened and what to do, for each kind of failure; `what` names the data ("tickets", "this ticket"). */
export function problemText(problem: LoadProblem, what: string, error: unknown): ProblemText {
  const status = httpStatus(error);
  switch (problem) {
    case 'gone':
      return { title: 'Not found', detail: `This ${what} does not exist, or it is not yours.` };
    case 'offline':
      return {
        title: 'You are offline',
        detail: `The ${what} could not be loaded: this device has no network connection. Reconnect, then try again.`,
      };
    case 'unreachable':
      return {
        title: 'The server could not be reached',
        detail: `The ${what} could not be loaded: the server did not answer. Check your connection, or wait a moment, then try again.`,
      };
    case 'server':
      return {
        title: 'The server had a problem',
        detail: `The ${what} could not be loaded: the server answered with an error${status ? ` (${status})` : ''}. Try again in a moment; if it keeps happening, tell your administrator.`,
      };
    case 'signedOut':
      return { title: 'You are signed out', detail: `Your session has ended. Reload the page and sign in again to see the ${what}.` };
    case 'refused':
      return { title: 'The server refused the request', detail: `The ${what} could not be loaded: ${describeError(error).message}` };
  }
}

/** The largest id a GraphQL Int can carry: a longer number in the address cannot name a record. */
const MAX_ID = 2 ** 31 - 1;

/** A record id from the address (`/view/ticket/12`), or null when it cannot be one (then the screen says "not found"). */
export function routeId(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isInteger(id) && id > 0 && id <= MAX_ID ? id : null;
}

/**
 * A screen's record is gone: never there, not the viewer's, or deleted since it was shown (a live event evicts it
 * and the refetch says NOT_FOUND; Apollo keeps the last data next to the error, so the data alone does not tell).
 * Only the server's NOT_FOUND / FORBIDDEN says so: a network failure or a 5xx is not "gone" (see LoadFailed).
 */
export function isGone(error: unknown): boolean {
  return !!error && loadProblem(error) === 'gone';
}

/** What a compare-and-set that lost says about the ticket now (takeTicket, assignTicket: CONFLICT's extensions). */
export interface VersionConflict {
  currentVersion: number;
  assigneeId: number | null;
}

/** The CONFLICT of a take or an assignment that came second, or null for any other failure. */
export function versionConflict(error: unknown): VersionConflict | null {
  if (!CombinedGraphQLErrors.is(error)) return null;
  const extensions = error.errors[0]?.extensions;
  if (extensions?.code !== 'CONFLICT' || typeof extensions.currentVersion !== 'number') return null;
  const assigneeId = extensions.assigneeId;
  return { currentVersion: extensions.currentVersion, assigneeId: typeof assigneeId === 'number' ? assigneeId : null };
}
