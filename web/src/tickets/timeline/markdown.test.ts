import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownHtml } from './markdown';

/** The tags the first layer may emit (markdown.ts: DOMPurify allows the same and nothing else). */
const TAGS = new Set([
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
]);
const ATTRIBUTES = new Set(['href', 'title', 'target', 'rel', 'start', 'align', 'class']);

/** Every tag of the output with its attributes, read as a browser reads them (values are double-quoted). */
function tagsOf(html: string): { tag: string; attributes: Map<string, string> }[] {
  return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*\/?>/g)].map((match) => ({
    tag: match[1].toLowerCase(),
    attributes: new Map([...match[2].matchAll(/\s+([^\s=/>]+)(?:="([^"]*)")?/g)].map((a) => [a[1].toLowerCase(), a[2] ?? ''])),
  }));
}

function expectInert(html: string) {
  // Every '<' that is not one of the tags read below is escaped text.
  const tags = tagsOf(html);
  expect(html.split('<').length - 1, html).toBe(tags.length);
  for (const { tag, attributes } of tags) {
    expect(TAGS, `<${tag}> in ${html}`).toContain(tag);
    for (const attribute of attributes.keys()) expect(ATTRIBUTES, `${attribute} in ${html}`).toContain(attribute);
    const href = attributes.get('href');
    if (href !== undefined) expect(href).toMatch(/^(https?:\/\/|mailto:)/i);
  }
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror="alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '[click](javascript:alert(1))',
  '[click]( JAVASCRIPT:alert(1) )',
  '![x](javascript:alert(1))',
  '![pixel](https://tracker.example/p.png)',
  '<iframe src="https://example.com"></iframe>',
  '<svg onload=alert(1)>',
  '<!-- <script>alert(1)</script> -->',
  '<details open ontoggle=alert(1)>',
  '[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '<style>body{display:none}</style>',
  '`<b>code</b>`',
  '```html\n<script>alert(1)</script>\n```',
  '<https://example.com/"onmouseover="alert(1)>',
  '[x](https://example.com "t\\" onclick=\\"alert(1)")',
];

describe('note Markdown', () => {
  it('renders the usual Markdown', () => {
    expect(markdownHtml('**bold** and _em_')).toBe('<p><strong>bold</strong> and <em>em</em></p>\n');
    expect(markdownHtml('line one\nline two')).toBe('<p>line one<br>line two</p>\n');
    expect(markdownHtml('- a\n- b')).toContain('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(markdownHtml('[docs](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow">docs</a></p>\n',
    );
    expect(markdownHtml('- [x] done\n- [ ] to do')).toContain('☑ done');
  });

  it('shows raw HTML as text, never as markup', () => {
    expect(markdownHtml('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markdownHtml('a <b onclick="x()">b</b>')).toBe('<p>a &lt;b onclick=&quot;x()&quot;&gt;b&lt;/b&gt;</p>\n');
  });

  it('keeps a javascript: link as its text and an image as a link', () => {
    expect(markdownHtml('[click](javascript:alert(1))')).toBe('<p>click</p>\n');
    expect(markdownHtml('![a cat](https://example.com/cat.png)')).toBe(
      '<p><a href="https://example.com/cat.png" target="_blank" rel="noopener noreferrer nofollow">a cat</a></p>\n',
    );
  });

  it.each(HOSTILE)('emits nothing active for %s', (body) => {
    expectInert(markdownHtml(body));
  });

  it('emits nothing active for any mix of Markdown, HTML and text', () => {
    const piece = fc.oneof(
      fc.constantFrom(...HOSTILE, '**', '_', '`', '\n', '\n\n', '- ', '> ', '# ', '[', '](', ')', '<', '>', '"', "'", '=', 'on', 'href', ' ', '|', '---'),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        expectInert(markdownHtml(pieces.join('')));
      }),
      { numRuns: 500 },
    );
  });

  it('renders 10,000 characters, emoji and right-to-left text', () => {
    const long = 'ab 😀 '.repeat(2000);
    expect(markdownHtml(long)).toContain('😀');
    expect(markdownHtml('שלום עולם مرحبا')).toBe('<p>שלום עולם مرحبا</p>\n');
  });
});
