import { isAppError } from '../errors.js';

/**
 * The services name a field their own way (`requester`, `applyMacro`, `message`); GraphQL callers must see the
 * names of the input or argument they sent (`requesterId`, `macroId`, `text`). Each table maps service name ->
 * GraphQL name, once per input; the resolvers translate the input with it and rename the errors back.
 */
export const TICKET_INPUT_NAMES = { requester: 'requesterId', applyMacro: 'macroId' } as const;
export const MESSAGE_ARG_NAMES = { message: 'text', receiver: 'receiverId' } as const;

/** Runs a service call; a refusal comes back with its fields under the GraphQL names. */
export async function withInputNames<T>(names: Readonly<Record<string, string>>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw isAppError(error) ? error.withFieldNames(names) : error;
  }
}
