import type { ErrorRequestHandler } from 'express';
import { AppError, isAppError } from '@fulcrum/schema';
import { bodyRefusal, sendAppError } from '../http/appErrors.js';
import type { ErrorLog } from '../logging.js';

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
    const refused = bodyRefusal(error);
    if (refused) return sendAppError(res, new AppError(refused.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_USER_INPUT', refused.message));
    log(error, `${req.method} ${req.originalUrl}`);
    res.status(500).json({ errors: { message: 'Internal server error' } });
  };
}
