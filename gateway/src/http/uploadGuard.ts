/**
 * Multipart GraphQL requests may carry up to LIMITS.replyAttachments.max files (replyToRequester's `attachments`);
 * every other upload argument takes one. A file the operation does not declare a variable for would be ignored by
 * GraphQL, so a request with one is refused (400) before it runs: the file limit of each argument is the one its
 * operation declares, never the request's.
 */
import type { RequestHandler } from 'express';
import { Kind, parse, type DocumentNode } from 'graphql';
import { Upload } from 'graphql-upload-minimal';

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
