import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachedFrom, forwardedFrom } from './forwarded.js';

const VALID = /^[^\s@<>",;:[\]]{1,64}@[^\s@<>",;:[\]]{1,190}$/;
const local = fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,20}$/);
const domain = fc.stringMatching(/^[a-z0-9-]{1,15}\.[a-z]{2,6}$/);
const address = fc.tuple(local, domain).map(([l, d]) => `${l}@${d}`);
const name = fc.string({ maxLength: 30 }).map((s) => s.replace(/[<>[\]@\r\n"*]/g, ' ').trim());
const noise = fc.array(
  fc.string({ maxLength: 60 }).map((s) => s.replace(/from\s*:|\r|\n/gi, ' ')),
  { maxLength: 6 },
);
const MARKERS = ['---------- Forwarded message ---------', 'Begin forwarded message:', '-----Original Message-----'];

describe('who a forwarded mail is from', () => {
  it('never throws, and gives a valid lower-case address or null, on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), fc.string({ maxLength: 400, unit: 'binary' })), (text) => {
        const found = forwardedFrom(text);
        if (found !== null) {
          expect(found.address).toMatch(VALID);
          expect(found.address).toBe(found.address.toLowerCase());
        }
      }),
      { numRuns: 500 },
    );
  });

  it("is the first From: line after the forward's marker, in each client's form", () => {
    fc.assert(
      fc.property(noise, fc.constantFrom(...MARKERS), name, address, address, fc.integer({ min: 0, max: 3 }), (before, marker, who, first, second, form) => {
        const from = [`From: ${who} <${first}>`, `*From:* ${who} [mailto:${first}]`, `> From: ${first}`, `From: "${who}" <${first.toUpperCase()}>`][form];
        const text = [...before, 'From: me@agent.test', marker, from, 'Sent: today', `From: ${second}`, 'Hello'].join('\n');
        expect(forwardedFrom(text)?.address).toBe(first);
      }),
      { numRuns: 300 },
    );
  });

  it('without a marker, the first From: line; without one, null', () => {
    expect(forwardedFrom('Hi\nFrom: Kim Lee <kim@x.test>\nSubject: y')).toEqual({ address: 'kim@x.test', name: 'Kim Lee' });
    expect(forwardedFrom('Please look at the printer.')).toBeNull();
    expect(forwardedFrom('Begin forwarded message:\nFrom: nobody\nFrom: <not an address>')).toBeNull();
  });

  it("reads an attached message's From, and nothing of other files", async () => {
    const eml = (from: string) => ({ filename: 'a.eml', contentType: 'message/rfc822', data: Buffer.from(`From: ${from}\r\nSubject: x\r\n\r\nHi\r\n`) });
    expect(await attachedFrom([eml('Ana <ANA@x.test>')])).toEqual({ address: 'ana@x.test', name: 'Ana' });
    expect(await attachedFrom([{ ...eml('ana@x.test'), contentType: 'text/plain' }])).toBeNull();
    expect(await attachedFrom([eml('garbage'), eml('bo@y.test')])).toEqual({ address: 'bo@y.test', name: '' });
  });
});
