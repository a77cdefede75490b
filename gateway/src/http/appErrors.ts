/**
 * The HTTP side of the one error type, shared by the /api facade (rest/errors.ts) and /images (images.ts): the
 * status from the code, the body as REST-CONTRACT.md fixes it. It lives in http/ so both import it from here and
 * http/ never imports rest/.
 */
import type { Response } from 'express';
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
