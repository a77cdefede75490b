import { isAppError } from '../errors.js';

/**
 * The message service names its fields its own way (`message`, `receiver`); GraphQL callers must see the names of
 * the arguments they sent (`text`, `receiverId`). The table maps service name -> GraphQL name; the resolvers rename
 * the errors back with it. (Tickets need none: the ticket service uses the GraphQL input's names.)
 */
export const MESSAGE_ARG_NAMES = { message: 'text', receiver: 'receiverId' } as const;

/** Runs a service call; a refusal comes back with its fields under the GraphQL names. */
export async function withInputNames<T>(names: Readonly<Record<string, string>>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw isAppError(error) ? error.withFieldNames(names) : error;
  }
}
