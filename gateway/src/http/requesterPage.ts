/**
 * The requester page (issue 25, docs/email.md): `/r/<token>`, reached from the link in every reply. No sign-in, no
 * cookie (mounted before the session middleware), no agent chrome: a small server-rendered page with the ticket's
 * title, status and public conversation (services/requesterView.ts, the one predicate of what a requester sees)
 * and a form to answer (a plain POST; the answer is a RequesterMessage via REQUESTER_PAGE). A wrong or revoked
 * token shows no ticket data (404), and counts against the client address's guess budget (429 past it).
 */
import express, { Router, type Request, type Response } from 'express';
import { forkEm, isAppError, requesterView, rules, type ServiceContext, type ServiceDeps } from '@fulcrum/schema';
import { sendFile } from './images.js';

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
button:focus-visible, textarea:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
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

/** The page of one ticket as its requester sees it: only what the view holds. */
export function renderRequesterPage(view: View, options: { error?: string; draft?: string; sent?: boolean } = {}): string {
  const entries = view.entries
    .map((e) => {
      const who = e.kind === 'reply' ? esc(e.authorName) : 'You';
      return `<li${e.kind === 'message' ? ' class="mine"' : ''}><p class="who">${who} <time datetime="${e.at.toISOString()}">${esc(e.at.toUTCString())}</time></p><p class="body">${esc(e.body)}</p>${renderFiles(e.files)}</li>`;
    })
    .join('\n');
  const conversation = entries ? `<ol aria-label="Conversation">\n${entries}\n</ol>` : '<p>No messages yet.</p>';
  const error = options.error ? `<p class="error" id="answer-error" role="alert">${esc(options.error)}</p>` : '';
  const sent = options.sent ? '<p class="notice" role="status">Your message was sent.</p>' : '';
  return page(
    `${view.title} · Your request`,
    `<h1>${esc(view.title)}</h1>
<p>Status: <span class="status">${esc(STATUS_WORDS[view.status] ?? view.status)}</span></p>
<h2>Conversation</h2>
${conversation}
<h2 id="answer-heading">Answer</h2>
${sent}
<form method="post" aria-labelledby="answer-heading">
<label for="body">Your message</label>
<textarea id="body" name="body" required maxlength="${rules.LIMITS.ticketNote.max}"${error ? ' aria-invalid="true" aria-describedby="answer-error"' : ''}>${esc(options.draft ?? '')}</textarea>
${error}
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

function refusal(res: Response, error: unknown): void {
  if (isAppError(error) && error.code === 'RATE_LIMITED') {
    res.status(429).send(LIMITED_PAGE);
    return;
  }
  if (isAppError(error) && error.code === 'NOT_FOUND') {
    res.status(404).send(NOT_FOUND_PAGE);
    return;
  }
  throw error;
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
  router.post('/r/:token', express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 5 }), async (req, res) => {
    headers(res);
    const body: unknown = (req.body as Record<string, unknown> | undefined)?.body;
    try {
      await requesterView.postRequesterMessage(context(req, deps), req.params.token, body);
      res.redirect(303, `/r/${encodeURIComponent(req.params.token)}?sent=1`);
    } catch (error) {
      if (isAppError(error) && error.code === 'BAD_USER_INPUT') {
        try {
          const view = await requesterView.requesterView(context(req, deps), req.params.token);
          res.status(400).send(renderRequesterPage(view, { error: error.fields?.body?.[0] ?? error.message, draft: typeof body === 'string' ? body : '' }));
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
