/**
 * The requester page (docs/email.md): `/r/<token>`, reached from the link in every reply. No sign-in, no
 * cookie (mounted before the session middleware), no agent chrome: a small server-rendered page with the ticket's
 * title, status and public conversation (services/requesterView.ts, the one predicate of what a requester sees)
 * and a form to answer (a plain multipart POST, no script: the text and up to LIMITS.replyAttachments.max images
 * within the ticket images' limits; the answer is a RequesterMessage via REQUESTER_PAGE, its images stored with
 * it). A refused answer shows the page again with the reason beside the field and the text kept; nothing is
 * stored. A wrong or revoked token shows no ticket data (404), and counts against the client address's guess
 * budget (429 past it, with Retry-After); a known link is never refused by that budget. Answers past their own
 * budgets (per link and per address an hour, per ticket the files held) are 429 with Retry-After: the page again,
 * saying what happened and when to try again, with the text kept; nothing is stored.
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { forkEm, isAppError, requesterView, rules, type ServiceContext, type ServiceDeps } from '@fulcrum/schema';
import { sendFile } from './images.js';
import { bodyRefusal } from './appErrors.js';

type View = Awaited<ReturnType<typeof requesterView.requesterView>>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STATUS_WORDS: Record<string, string> = { OPEN: 'Open', PENDING: 'Pending', SOLVED: 'Solved' };

const STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a; background: #f6f6f4; }
body { margin: 0; }
main { max-width: 42rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
.status { display: inline-block; padding: .1rem .6rem; border-radius: 1rem; background: #e3e8ef; font-size: .9rem; }
ol { list-style: none; padding: 0; margin: 1.5rem 0; }
li { background: #fff; border: 1px solid #d5d5d0; border-radius: .5rem; padding: .75rem 1rem; margin: 0 0 .75rem; }
li.mine { background: #eef5ee; border-color: #b9d3b9; }
.who { font-weight: 600; margin: 0; }
time { color: #4a4a4a; font-size: .9rem; }
.body { white-space: pre-wrap; overflow-wrap: anywhere; margin: .5rem 0 0; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
textarea { box-sizing: border-box; width: 100%; min-height: 8rem; font: inherit; padding: .5rem; border: 1px solid #767676; border-radius: .25rem; }
button { margin-top: .5rem; font: inherit; padding: .5rem 1.25rem; border: 0; border-radius: .25rem; background: #1d4ed8; color: #fff; cursor: pointer; }
input[type=file] { font: inherit; margin: .25rem 0; }
.hint { margin: 0; color: #4a4a4a; font-size: .9rem; }
button:focus-visible, textarea:focus-visible, input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.files { list-style: none; padding: 0; margin: .5rem 0 0; }
.files li { border: 0; padding: 0; margin: .25rem 0; background: none; }
.files img { max-width: 100%; max-height: 24rem; border: 1px solid #d5d5d0; border-radius: .25rem; }
.error { color: #a00000; font-weight: 600; }
.notice { color: #1a5d1a; font-weight: 600; }
`;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/r/style.css">
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

const sizeWords = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`);

/**
 * An entry's files: images inline, anything else a download link. Each is `?file=<n>` under the page's own address
 * (the requester's link): no token or record id is written into the page.
 */
function renderFiles(files: View['entries'][number]['files']): string {
  if (!files.length) return '';
  const items = files
    .map((f) =>
      f.mimeType.startsWith('image/')
        ? `<li><a href="?file=${f.n}"><img src="?file=${f.n}" alt="${esc(f.filename)}"></a></li>`
        : `<li><a href="?file=${f.n}" download>${esc(f.filename)}</a> (${f.mimeType === 'application/pdf' ? 'PDF' : esc(f.mimeType)}, ${sizeWords(f.byteSize)})</li>`,
    )
    .join('');
  return `<ul class="files" aria-label="Attachments">${items}</ul>`;
}

/** The image types the answer form accepts (as ticket images: services/images.ts checks the bytes). */
const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';
const IMAGES_HINT = `Optional: up to ${rules.LIMITS.replyAttachments.max} images (PNG, JPEG, GIF or WebP), each at most ${rules.LIMITS.imageBytes / 1024 / 1024} MB.`;

/** Why an answer was refused, by form field. */
interface AnswerErrors {
  body?: string;
  images?: string;
}

/** Said above the conversation of a link drawn for a new requester (services/requesterLinks.ts). */
const STARTS_LATER = 'Earlier messages on this request are not shown here.';

/** The page of one ticket as its requester sees it: only what the view holds. */
export function renderRequesterPage(view: View, options: { errors?: AnswerErrors; draft?: string; sent?: boolean; refused?: string } = {}): string {
  const entries = view.entries
    .map((e) => {
      const who = e.kind === 'reply' ? esc(e.authorName) : 'You';
      return `<li${e.kind === 'message' ? ' class="mine"' : ''}><p class="who">${who} <time datetime="${e.at.toISOString()}">${esc(e.at.toUTCString())}</time></p><p class="body">${esc(e.body)}</p>${renderFiles(e.files)}</li>`;
    })
    .join('\n');
  const conversation = entries ? `<ol aria-label="Conversation">\n${entries}\n</ol>` : '<p>No messages yet.</p>';
  const errors = options.errors ?? {};
  const error = errors.body ? `<p class="error" id="answer-error" role="alert">${esc(errors.body)}</p>` : '';
  const imagesError = errors.images ? `<p class="error" id="images-error" role="alert">${esc(errors.images)}</p>` : '';
  const sent = options.sent ? '<p class="notice" role="status">Your message was sent.</p>' : '';
  const refused = options.refused ? `<p class="error" role="alert">${esc(options.refused)}</p>` : '';
  const startsLater = view.startsLater ? `<p class="hint">${esc(STARTS_LATER)}</p>\n` : '';
  return page(
    `${view.title} · Your request`,
    `<h1>${esc(view.title)}</h1>
<p>Status: <span class="status">${esc(STATUS_WORDS[view.status] ?? view.status)}</span></p>
<h2>Conversation</h2>
${startsLater}${conversation}
<h2 id="answer-heading">Answer</h2>
${sent}${refused}
<form method="post" enctype="multipart/form-data" aria-labelledby="answer-heading">
<label for="body">Your message</label>
<textarea id="body" name="body" required maxlength="${rules.LIMITS.ticketNote.max}"${error ? ' aria-invalid="true" aria-describedby="answer-error"' : ''}>${esc(options.draft ?? '')}</textarea>
${error}
<label for="images">Images</label>
<p class="hint" id="images-hint">${esc(IMAGES_HINT)}</p>
<input type="file" id="images" name="images" accept="${IMAGE_TYPES}" multiple aria-describedby="images-hint${imagesError ? ' images-error' : ''}"${imagesError ? ' aria-invalid="true"' : ''}>
${imagesError}
<button type="submit">Send</button>
</form>`,
  );
}

const NOT_FOUND_PAGE = page(
  'Link not found',
  '<h1>This link does not work</h1><p>It may have been replaced by a newer one. Use the link in the latest email you received about your request.</p>',
);
const LIMITED_PAGE = page('Too many attempts', '<h1>Too many attempts</h1><p>Please wait a few minutes and try again.</p>');

function context(req: Request, deps: ServiceDeps): ServiceContext {
  return { em: forkEm(deps.orm), viewerId: null, deps, clientIp: req.ip ?? 'unknown', via: 'REQUESTER_PAGE' };
}

function headers(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.type('html');
}

/** Retry-After of a RATE_LIMITED refusal (whole seconds, at least 1). */
function retryAfter(res: Response, error: { retryAfter?: number }): void {
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil(error.retryAfter ?? 60))));
}

function refusal(res: Response, error: unknown): void {
  if (isAppError(error) && error.code === 'RATE_LIMITED') {
    retryAfter(res, error);
    res.status(429).send(LIMITED_PAGE);
    return;
  }
  if (isAppError(error) && error.code === 'NOT_FOUND') {
    res.status(404).send(NOT_FOUND_PAGE);
    return;
  }
  throw error;
}

const urlencoded = express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 5 });
// The page's own form: the text (100 kB, as the urlencoded form) and the images, each within the ticket image limit,
// at most one more than allowed (so "too many" is said by the service's own rule, with the others' checks).
const multipart = multer({
  storage: multer.memoryStorage(),
  defParamCharset: 'utf8',
  limits: { fileSize: rules.LIMITS.imageBytes, files: rules.LIMITS.replyAttachments.max + 1, fields: 5, fieldSize: 100 * 1024, parts: 16 },
}).array('images');

interface ReadAnswer {
  /** The images chosen (an empty file input sends one part with no name and no bytes: not a file). */
  files: { filename: string; data: Buffer }[];
  /** The form was refused while it was read: status and the sentence for the page. */
  refused?: { status: number; message: string };
}

/** Reads the answer form, multipart (text and images) or urlencoded (text only, as before). */
function readAnswer(req: Request, res: Response): Promise<ReadAnswer> {
  const multi = req.is('multipart/form-data') === 'multipart/form-data';
  return new Promise((resolve) => {
    const done: NextFunction = (error?: unknown) => {
      const uploaded = multi && Array.isArray(req.files) ? req.files : [];
      const files = uploaded.filter((f) => f.size > 0 || f.originalname !== '').map((f) => ({ filename: f.originalname, data: f.buffer }));
      if (!error) return resolve({ files });
      const code = (error as { code?: unknown }).code;
      if (error instanceof multer.MulterError) {
        if (code === 'LIMIT_FILE_SIZE') return resolve({ files: [], refused: { status: 413, message: rules.MESSAGES.imageSize } });
        if (code === 'LIMIT_FILE_COUNT') return resolve({ files: [], refused: { status: 400, message: rules.MESSAGES.imageCount } });
        return resolve({ files: [], refused: { status: 400, message: rules.MESSAGES.requesterForm } });
      }
      // Anything else the parser hands on (a body cut short, no boundary) is the form's fault too: http/appErrors.ts.
      resolve({ files: [], refused: { status: bodyRefusal(error, true)!.status, message: rules.MESSAGES.requesterForm } });
    };
    (multi ? multipart : urlencoded)(req, res, done);
  });
}

export function createRequesterRouter(deps: ServiceDeps): Router {
  const router = Router();
  router.get('/r/style.css', (_req, res) => {
    res.type('css').setHeader('Cache-Control', 'public, max-age=3600');
    res.send(STYLE);
  });
  router.get('/r/:token', async (req, res) => {
    headers(res);
    try {
      if (req.query.file !== undefined) {
        const file = await requesterView.requesterFile(context(req, deps), req.params.token, req.query.file);
        sendFile(res, file);
        res.end(file.data);
        return;
      }
      const view = await requesterView.requesterView(context(req, deps), req.params.token);
      res.send(renderRequesterPage(view, { sent: req.query.sent === '1' }));
    } catch (error) {
      refusal(res, error);
    }
  });
  router.post('/r/:token', async (req, res) => {
    headers(res);
    const parsed = await readAnswer(req, res);
    const body: unknown = (req.body as Record<string, unknown> | undefined)?.body;
    const draft = typeof body === 'string' ? body : '';
    try {
      if (parsed.refused) {
        // The form could not be read to the end (a file past the limits): nothing is stored; the page says why.
        const view = await requesterView.requesterView(context(req, deps), req.params.token);
        res.status(parsed.refused.status).send(renderRequesterPage(view, { errors: { images: parsed.refused.message }, draft }));
        return;
      }
      await requesterView.postRequesterMessage(context(req, deps), req.params.token, body, parsed.files);
      res.redirect(303, `/r/${encodeURIComponent(req.params.token)}?sent=1`);
    } catch (error) {
      if (isAppError(error) && error.code === 'RATE_LIMITED') {
        // An answer past its budgets: the page again, saying what happened and when to try again, the text kept. (An
        // unknown token past the guess budget is refused again by the view: the plain 429 page.)
        try {
          const view = await requesterView.requesterView(context(req, deps), req.params.token);
          retryAfter(res, error);
          res.status(429).send(renderRequesterPage(view, { refused: error.message, draft }));
        } catch (again) {
          refusal(res, again);
        }
        return;
      }
      if (isAppError(error) && error.code === 'BAD_USER_INPUT') {
        try {
          const view = await requesterView.requesterView(context(req, deps), req.params.token);
          const errors = { body: error.fields?.body?.[0], images: error.fields?.images?.[0] };
          res.status(400).send(renderRequesterPage(view, { errors: errors.body || errors.images ? errors : { body: error.message }, draft }));
        } catch (again) {
          refusal(res, again);
        }
        return;
      }
      refusal(res, error);
    }
  });
  return router;
}
