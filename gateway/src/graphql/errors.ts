import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { isAppError, type AppError } from '@fulcrum/schema';
import type { ErrorLog } from '../logging.js';

/** An AppError's GraphQL `extensions`: code, the fields (and the first one's name) when it has them, retryAfter, and a
 * CONFLICT's details (`currentVersion`, `assigneeId`). */
export function appErrorExtensions(error: AppError): Record<string, unknown> {
  return {
    code: error.code,
    ...(error.fields ? { field: error.field, fields: error.fields } : {}),
    ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}),
    ...(error.details ?? {}),
  };
}

/**
 * The GraphQL side of the one error type: an AppError becomes `extensions { code, field, fields, retryAfter }`;
 * GraphQL's own errors (parse, validation, variable coercion) keep their message and code; anything else is
 * logged and answered as INTERNAL with no detail. No stack trace ever leaves the server.
 */
export function createFormatError(log: ErrorLog) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (isAppError(original)) {
      return {
        message: original.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: appErrorExtensions(original),
      };
    }
    const code = formatted.extensions?.code;
    const isClientError = original instanceof GraphQLError || (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR');
    if (isClientError) {
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: code ?? 'BAD_REQUEST' } };
    }
    log(original, `graphql ${formatted.path?.join('.') ?? ''}`);
    return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL' } };
  };
}
