/**
 * What a mail client leaves in a reply's text that is not the requester's words (docs/email.md "Threading"): after
 * the reply parser (email-reply-parser knows the English, German, French and Spanish attribution lines and `>`
 * quotes), the text is cut at the first
 *
 * - attribution line it does not know, Gmail's Japanese `2026年12月1日(火) 9:00 Kim <kim@x>:` among them (also the
 *   German, French and Spanish ones when a client wrapped them onto two lines);
 * - line of 30 or more dashes or underscores: Outlook's separator above the quoted mail (Outlook on the web's
 *   `<hr>` becomes 80 of them in the text of an HTML-only mail, Outlook's own text part has 32 underscores);
 *
 * and image references are removed: `[image: logo.png]` (Gmail's text part), `[<url>]` of an image the HTML part
 * shows (tracking pixels included; the text mailparser makes of an HTML-only mail lists them so), and an image's URL
 * alone on its line. The whole text stays in the original.
 */

/** An attribution line (or two lines joined by a space) of the languages the reply parser does not cover. */
const ATTRIBUTION = [/^\d{4}年\d{1,2}月\d{1,2}日.*[:：]$/u, /^Am .{4,200} schrieb .{1,200}:$/u, /^Le .{4,200} a écrit ?:$/u, /^El .{4,200} escribió ?:$/u];

const RULE = /^[ \t]*(?:-{30,}|_{30,})[ \t]*$/;

const IMAGE_URL = /^https?:\/\/\S+\.(?:png|gif|jpe?g|webp|svg|bmp|ico|avif)(?:[?#]\S*)?$/i;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An image of an HTML part: its `src` and `alt`. */
export interface ImageRef {
  src: string;
  alt: string;
}

const attribute = (tag: string, name: string) =>
  new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]{0,2000})"|'([^']{0,2000})'|([^\\s>]{1,2000}))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((v) => v !== undefined) ?? '';

/** The `<img>`s of an HTML part (at most 200), their `src` and `alt` as the text shows them. */
export function imageRefs(html: string | null | undefined): ImageRef[] {
  if (!html) return [];
  const found: ImageRef[] = [];
  for (const m of html.slice(0, 1_000_000).matchAll(/<img\b[^>]{0,5000}>/gi)) {
    const src = attribute(m[0], 'src').replace(/&amp;/g, '&').trim();
    if (src) found.push({ src, alt: attribute(m[0], 'alt').replace(/&amp;/g, '&').trim() });
    if (found.length >= 200) break;
  }
  return found;
}

/** The text before the first attribution line or separator rule, without image references, trimmed. */
export function withoutLeftovers(text: string, images: readonly ImageRef[] = []): string {
  const lines = text.split('\n');
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const joined = `${line} ${(lines[i + 1] ?? '').trim()}`.trim();
    if (RULE.test(lines[i]) || ATTRIBUTION.some((a) => a.test(line) || (line.length > 0 && a.test(joined)))) {
      end = i;
      break;
    }
  }
  let kept = lines.slice(0, end).join('\n');
  kept = kept.replace(/\[image: [^\]\n]{0,300}\]/gi, '');
  for (const { src, alt } of images) kept = kept.replace(new RegExp(`${alt ? `(?:${escape(alt)}\\s*)?` : ''}\\[${escape(src)}\\]`, 'g'), '');
  const sources = new Set(images.map((i) => i.src));
  return kept
    .split('\n')
    .filter((line) => {
      const t = line.trim();
      return !(IMAGE_URL.test(t) || (t.length > 0 && sources.has(t)));
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
