/**
 * Multipart GraphQL requests may carry up to LIMITS.replyAttachments.max files (replyToRequester's `attachments`);
 * every other upload argument takes one. A file the operation does not declare a variable for would be ignored by
 * GraphQL, so a request with one is refused (400) before it runs: the file limit of each argument is the one its
 * operation declares, never the request's.
 */
import { PassThrough } from 'node:stream';
import type { RequestHandler } from 'express';
import { Kind, parse, type DocumentNode } from 'graphql';
import { Upload, type FileUpload } from 'graphql-upload-minimal';
import { AppError } from '@fulcrum/schema';
import { BODY_MESSAGES } from './appErrors.js';

const holdsUpload = (value: unknown): boolean => value instanceof Upload || (Array.isArray(value) && value.some(holdsUpload));

function declared(query: unknown): Set<string> | null {
  if (typeof query !== 'string') return null;
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return null; // GraphQL answers the syntax error itself
  }
  const names = new Set<string>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION) for (const v of definition.variableDefinitions ?? []) names.add(v.variable.name.value);
  return names;
}

export const refuseUndeclaredUploads: RequestHandler = (req, res, next) => {
  if (!req.is('multipart/form-data')) return next();
  const operations: unknown[] = Array.isArray(req.body) ? (req.body as unknown[]) : [req.body];
  for (const operation of operations) {
    const { query, variables } = (operation ?? {}) as { query?: unknown; variables?: Record<string, unknown> | null };
    const names = declared(query);
    if (!names) continue;
    for (const [name, value] of Object.entries(variables ?? {})) {
      if (!names.has(name) && holdsUpload(value)) {
        res.status(400).json({ errors: [{ message: `File for an undeclared variable: $${name}.`, extensions: { code: 'BAD_USER_INPUT' } }] });
        return;
      }
    }
  }
  next();
};

/**
 * A multipart body cut short after its `operations` and `map`: the operation runs, and a file that never arrives
 * rejects with the parser's plain Error ("Unexpected end of form"), one that stops mid-way ends its stream with
 * one; a resolver would answer the first as an internal error (logged, with its stack) and the reading of the
 * second as a file too large. Each upload of the request is guarded here: those errors become the body's
 * refusal (BAD_USER_INPUT, the message of every unreadable body, http/appErrors.ts); a file past its size limit
 * keeps graphql-upload's 413 error, which the resolvers answer with the field's own message.
 */
const pastLimit = (error: unknown) => (error as { status?: unknown } | null)?.status === 413;
const asRefusal = (error: unknown) => (pastLimit(error) ? error : new AppError('BAD_USER_INPUT', BODY_MESSAGES.malformed));

function guarded(file: FileUpload): FileUpload {
  return {
    ...file,
    createReadStream: () => {
      let source: ReturnType<FileUpload['createReadStream']>;
      try {
        source = file.createReadStream();
      } catch (error) {
        throw asRefusal(error);
      }
      const out = new PassThrough();
      source.once('error', (error) => out.destroy(asRefusal(error) as Error));
      return source.pipe(out) as unknown as ReturnType<FileUpload['createReadStream']>;
    },
  };
}

function guardUploads(value: unknown, seen = new Set<unknown>()): void {
  if (!value || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (value instanceof Upload) {
    const upload = value as Upload & { promise: Promise<FileUpload> };
    upload.promise = upload.promise.then(guarded, (error: unknown) => {
      throw asRefusal(error);
    });
    upload.promise.catch(() => {}); // as graphql-upload's own: an upload no resolver reads must not reject unhandled
    return;
  }
  for (const v of Object.values(value)) guardUploads(v, seen);
}

export const refuseCutShortUploads: RequestHandler = (req, _res, next) => {
  if (req.is('multipart/form-data')) guardUploads(req.body);
  next();
};
