import type { ErrorRequestHandler, Response } from 'express';
import { AppError, HTTP_STATUS, isAppError } from '@fulcrum/schema';
import type { ErrorLog } from '../logging.js';

/** The REST side of the one error type: status from the code, body as REST-CONTRACT.md fixes it. */
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

/** Body-parser and multer failures arrive as plain errors with a status or a code. */
function fromTransportError(error: { status?: number; type?: string; code?: string; message?: string }): AppError | null {
  if (error.type === 'entity.too.large' || error.code === 'LIMIT_FILE_SIZE') {
    return new AppError(
      'PAYLOAD_TOO_LARGE',
      error.code === 'LIMIT_FILE_SIZE' ? 'Image must be 5 MB or smaller.' : 'Request body is too large.',
      error.code === 'LIMIT_FILE_SIZE' ? { fields: { image: ['Image must be 5 MB or smaller.'] } } : {},
    );
  }
  if (error.type === 'entity.parse.failed') return new AppError('BAD_USER_INPUT', 'Malformed JSON body.');
  if (typeof error.code === 'string' && error.code.startsWith('LIMIT_')) {
    return new AppError('BAD_USER_INPUT', 'Send one image file in the form field "image".', {
      fields: { image: ['Send one image file in the form field "image".'] },
    });
  }
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') return new AppError('BAD_USER_INPUT', 'Unsupported body encoding.');
  if (error.status && error.status >= 400 && error.status < 500) return new AppError('BAD_USER_INPUT', 'Bad request.');
  return null;
}

/** The last handler under /api: AppErrors get their status; anything else is a logged 500 with no detail. */
export function apiErrorHandler(log: ErrorLog): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return;
    const authRoute = req.path === '/auth/login' || req.path === '/auth/signup';
    if (isAppError(error)) return sendAppError(res, error, { authRoute });
    const transport = fromTransportError((error ?? {}) as Parameters<typeof fromTransportError>[0]);
    if (transport) return sendAppError(res, transport);
    log(error, `${req.method} ${req.originalUrl}`);
    res.status(500).json({ errors: { message: 'Internal server error' } });
  };
}
