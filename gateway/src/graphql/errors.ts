import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { isAppError } from '@fulcrum/schema';
import type { ErrorLog } from '../logging.js';

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
        extensions: {
          code: original.code,
          ...(original.fields ? { field: original.field, fields: original.fields } : {}),
          ...(original.retryAfter ? { retryAfter: original.retryAfter } : {}),
        },
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
