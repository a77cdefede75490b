import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';

/**
 * A note's Markdown as HTML, safe to insert ("raw HTML never executes"). Two layers:
 * 1. marked renders with a renderer that never passes HTML through: raw HTML in the note (`<script>`, `<img
 *    onerror>`, comments) is shown as text, links keep only http(s) and mailto addresses (a `javascript:` link is
 *    its text), and images become links (the page loads nothing a note names; the CSP would refuse it anyway);
 * 2. DOMPurify then keeps only the tags and attributes below, whatever the first layer let through.
 * The result goes into the page as HTML (never as a script: the app's CSP refuses inline scripts as a third layer).
 * Notes render as the agent wrote them: GitHub-flavoured, a single line break is a break.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Addresses a note's link may point to; anything else (javascript:, data:, vbscript:, ...) stays text. */
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

function safeHref(href: string): string | null {
  const trimmed = href.trim();
  return SAFE_HREF.test(trimmed) ? trimmed : null;
}

function linkHtml(href: string, title: string | null | undefined, inner: string): string {
  const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
  return `<a href="${escapeHtml(href)}"${titleAttr} target="_blank" rel="noopener noreferrer nofollow">${inner}</a>`;
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      return safe ? linkHtml(safe, title, inner) : inner;
    },
    // A task list's box as a character: an <input> in a note would be an unlabelled control.
    checkbox({ checked }: Tokens.Checkbox) {
      return checked ? '☑ ' : '☐ ';
    },
    image({ href, title, text }: Tokens.Image) {
      const safe = safeHref(href);
      const label = escapeHtml(text || href);
      return safe ? linkHtml(safe, title, label) : label;
    },
  },
});

/** The first layer alone (marked with the renderer above): what the unit tests check without a DOM. */
export function markdownHtml(body: string): string {
  return marked.parse(body, { async: false });
}

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'title', 'target', 'rel', 'start', 'align', 'class'];

/** A note's body as sanitized HTML for `dangerouslySetInnerHTML`. */
export function noteHtml(body: string): string {
  const html = markdownHtml(body);
  // No DOM (never in a browser): nothing can be proven safe, so show the text.
  if (!DOMPurify.isSupported) return escapeHtml(body);
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false });
}
