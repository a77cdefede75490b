import { Router, type Response } from 'express';
import { isAppError, replyAttachments, tickets, type ServiceDeps } from '@fulcrum/schema';
import { serviceContextFor } from './serviceContext.js';
import { sendAppError } from './appErrors.js';

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * GET /images/:id serves a ticket image to the ticket's agent only, with the type detected at upload,
 * nosniff, an inline Content-Disposition with a safe name, and a sandboxing CSP in case a browser renders it.
 */
export function createImageRouter(deps: ServiceDeps): Router {
  const router = Router();
  router.get('/images/:id', async (req, res) => {
    try {
      const image = await tickets.getTicketImageData(serviceContextFor(req, deps, 'graphql'), req.params.id);
      res.setHeader('Content-Type', image.mimeType);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Disposition', `inline; filename="ticket-${image.ticketId}.${EXTENSIONS[image.mimeType] ?? 'bin'}"`);
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      // Image ids change when an image is replaced, so a private cache can keep one for a while.
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.end(image.data);
    } catch (error) {
      if (isAppError(error)) return sendAppError(res, error);
      throw error;
    }
  });
  // GET /attachments/:id: a file of a reply or a requester's message, to the ticket's agents only (the access rule).
  router.get('/attachments/:id', async (req, res) => {
    try {
      const file = await replyAttachments.attachmentData(serviceContextFor(req, deps, 'graphql'), req.params.id);
      sendFile(res, file);
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.end(file.data);
    } catch (error) {
      if (isAppError(error)) return sendAppError(res, error);
      throw error;
    }
  });
  return router;
}

/**
 * The headers of a stored file: its detected type, nosniff, a sandboxing CSP, and its name (RFC 6266) as an inline
 * image or, for anything else, a download.
 */
export function sendFile(res: Response, file: { filename: string; mimeType: string }): void {
  res.attachment(file.filename);
  if (file.mimeType.startsWith('image/')) res.setHeader('Content-Disposition', String(res.get('Content-Disposition')).replace(/^attachment/, 'inline'));
  res.setHeader('Content-Type', file.mimeType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
}
