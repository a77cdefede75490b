/**
 * The HTTP side of the one error type, shared by the /api facade (rest/errors.ts) and /images (images.ts): the
 * status from the code, the body as REST-CONTRACT.md fixes it. It lives in http/ so both import it from here and
 * http/ never imports rest/.
 */
import type { NextFunction, RequestHandler, Response } from 'express';
import { HTTP_STATUS, type AppError } from '@fulcrum/schema';

/** Answers `error` with its status and the contract's error body. */
export function sendAppError(res: Response, error: AppError, options: { authRoute?: boolean } = {}): void {
  const status = HTTP_STATUS[error.code];
  if (error.retryAfter) res.setHeader('Retry-After', String(error.retryAfter));
  // Login and signup answer a bare field dict with 401 (the legacy client reads it as-is).
  if (options.authRoute && error.fields && (error.code === 'LOGIN_FAILED' || error.code === 'BAD_USER_INPUT')) {
    res.status(401).json(error.fields);
    return;
  }
  const body = error.fields && error.code !== 'FORBIDDEN' && error.code !== 'NOT_FOUND' ? error.fields : { message: error.message };
  res.status(status).json({ errors: body });
}

/**
 * A request body its parser could not read is the client's mistake, whatever the parser: body-parser's errors
 * carry a 4xx status, but busboy (under multer and graphql-upload-minimal) reports a multipart body without a
 * boundary, cut short or with a malformed part as a plain Error ("Unexpected end of form"), and
 * graphql-upload-minimal calls a multipart body holding neither `operations` nor `map` a 500. So every error a
 * body parser hands on (`readsBody`, or a caller that ran the parser itself) is answered 400, or 413 when it is
 * past a size limit, never logged (a client's mistake is not the server's), and its message is the parser's own
 * only when that parser marks it as safe to show (`expose`, http-errors' convention).
 */
interface BodyRefusal {
  status: 400 | 413;
  message: string;
}

export const BODY_MESSAGES = {
  malformed: 'The request body could not be read: it is malformed or incomplete.',
  tooLarge: 'The request body is too large.',
} as const;

/** The errors a body parser handed on (marked, not wrapped: the transports still read their own codes from them). */
const parserErrors = new WeakSet<object>();

/** Busboy's and multer's codes and body-parser's types that say a limit was passed. */
const TOO_LARGE = new Set(['entity.too.large', 'parameters.too.many', 'LIMIT_FILE_SIZE', 'LIMIT_FIELD_VALUE', 'LIMIT_PART_COUNT', 'LIMIT_FIELD_COUNT']);

/** The refusal of a body an error stands for, or null for an error that is not about the body. */
export function bodyRefusal(error: unknown, fromParser = typeof error === 'object' && error !== null && parserErrors.has(error)): BodyRefusal | null {
  const e = (error ?? {}) as { status?: unknown; type?: unknown; code?: unknown; expose?: unknown; message?: unknown };
  const status = typeof e.status === 'number' ? e.status : null;
  const clientStatus = status !== null && status >= 400 && status < 500;
  if (!fromParser && !(clientStatus && typeof e.type === 'string')) return null;
  const tooLarge = status === 413 || TOO_LARGE.has(String(e.type)) || TOO_LARGE.has(String(e.code));
  const shown = clientStatus && e.expose === true && typeof e.message === 'string' && e.message ? e.message : null;
  return { status: tooLarge ? 413 : 400, message: shown ?? (tooLarge ? BODY_MESSAGES.tooLarge : BODY_MESSAGES.malformed) };
}

/** Runs a body parser (body-parser, multer, graphql-upload-minimal) and marks every error it hands on as the body's. */
export function readsBody(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const marked: NextFunction = (error?: unknown) => {
      if (typeof error === 'object' && error !== null) parserErrors.add(error);
      next(error);
    };
    try {
      const running: unknown = parser(req, res, marked);
      if (running instanceof Promise) running.catch(marked);
    } catch (error) {
      marked(error);
    }
  };
}
