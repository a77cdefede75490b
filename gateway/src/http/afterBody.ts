/**
 * Answering a request whose body has not all arrived yet (a refusal: more files than allowed, a body too large).
 *
 * Answering at once leaves the rest of the body unread: the connection stalls (the client's writes wait on a server
 * that no longer reads) until it is closed under the client, which then reports ECONNRESET or EPIPE instead of our
 * answer and its message (gateway/test/http/earlyRefusal.test.ts). So the refusal is sent once the body has been
 * read to its end and dropped, as Express's own final handler does (finalhandler: unpipe, resume, on-finished) and
 * web servers do with a "lingering close"; the wait is bounded, after which the answer goes out and the connection
 * is closed after it (a client that never stops sending cannot hold it open). Hand-written because finalhandler
 * answers with its own HTML page and on-finished alone neither drains nor bounds the wait.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished } from 'node:stream';

/** How long a refused body is read (and dropped) before the answer goes out anyway. */
export const REFUSED_BODY_WAIT_MS = 15_000;

/** Calls `answer` once `req`'s body has been read to its end (or after `waitMs`, closing the connection after it). */
export function afterBody(req: IncomingMessage, res: ServerResponse, answer: () => void, waitMs = REFUSED_BODY_WAIT_MS): void {
  if (req.complete || req.readableEnded || req.destroyed) return answer();
  let done = false;
  const go = (gaveUp: boolean) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (gaveUp && !res.headersSent) res.setHeader('Connection', 'close');
    answer();
  };
  const timer = setTimeout(() => go(true), waitMs);
  finished(req, () => go(false));
  // Whatever was reading the body (multer's busboy, graphql-upload's parser) has let go of it: drop the rest.
  req.unpipe();
  req.resume();
}

/**
 * Drops what is left of a request's body once its answer has gone out. A GraphQL multipart request is answered when
 * its resolver is done, which may be before the parser (graphql-upload's busboy) has read the whole body: a reply
 * refused on its first file's size leaves the later files unread, the parser waits for someone to read them, the
 * connection stops being read, and the client, still sending, waits until the server's request timeout closes the
 * connection under it (ECONNRESET a minute later instead of the answer it was sent). Node drops an unread body by
 * itself (IncomingMessage's _dump) only when nothing was piped from it, so the pipe is cut here, as Express's
 * finalhandler does for its own answers.
 */
export function dropBodyAfterAnswer(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  res.once('finish', () => {
    if (req.complete || req.readableEnded || req.destroyed) return;
    req.unpipe();
    req.resume();
  });
  next();
}
