import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageRefs, withoutLeftovers } from './leftovers.js';

const line = fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => s.replace(/[\n\r[\]_-]/g, ' '));

describe('mail client leftovers', () => {
  it('nothing under an attribution line or separator rule is kept, and the words above it are', () => {
    const separators = ['2026年12月1日(火) 9:00 Kim <kim@x.test>:', '_'.repeat(80), '-'.repeat(80), 'Am 1. Dez. 2026 schrieb Kim <kim@x.test>:'];
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 5 }),
        fc.constantFrom(...separators),
        fc.array(line, { minLength: 1, maxLength: 5 }),
        (above, separator, below) => {
          const kept = withoutLeftovers([...above, separator, ...below].join('\n'));
          expect(kept).toBe(withoutLeftovers(above.join('\n')));
          expect(kept.length).toBeLessThanOrEqual(above.join('\n').length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the images of the HTML part are gone from the text, with their alt text; other words stay', () => {
    const html = '<p>Hi</p><img src="https://t.example/o?id=1&amp;u=2" width=1><img alt="logo.png" src=\'https://cdn.example/l.png\'>';
    const images = imageRefs(html);
    expect(images).toEqual([
      { src: 'https://t.example/o?id=1&u=2', alt: '' },
      { src: 'https://cdn.example/l.png', alt: 'logo.png' },
    ]);
    const text =
      'Hi [https://t.example/o?id=1&u=2]logo.png [https://cdn.example/l.png]\nhttps://t.example/o?id=1&u=2\n[image: x.png] see [https://docs.example/]';
    expect(withoutLeftovers(text, images)).toBe('Hi \n see [https://docs.example/]');
  });
});
