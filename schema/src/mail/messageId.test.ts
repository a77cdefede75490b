import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, fromAddressCount, headerFields, messageIdOf } from './messageId.js';

const mail = (head: string, body = 'Hello.\r\n') => Buffer.from(`${head.replace(/\n/g, '\r\n')}\r\n\r\n${body}`);

describe('what identifies a mail', () => {
  it('a Message-ID is read only when one field holds exactly one <id>', () => {
    expect(messageIdOf(headerFields(mail('Message-ID: <a@b.test>\nSubject: x')))).toBe('<a@b.test>');
    expect(messageIdOf(headerFields(mail('Message-ID:\n <a@b.test>')))).toBe('<a@b.test>');
    expect(messageIdOf(headerFields(mail('Message-ID: junk <a@b.test>')))).toBeNull();
    expect(messageIdOf(headerFields(mail('Message-ID: <a@b.test> <c@d.test>')))).toBeNull();
    expect(messageIdOf(headerFields(mail('Message-ID: <a@b.test>\nMessage-ID: <c@d.test>')))).toBeNull();
    expect(messageIdOf(headerFields(mail('Message-ID: <<a@b.test>>')))).toBeNull();
    expect(messageIdOf(headerFields(mail('Subject: none')))).toBeNull();
    const core = fc.stringMatching(/^[A-Za-z0-9.$%_+-]{1,30}@[a-z0-9.-]{1,20}$/);
    fc.assert(
      fc.property(core, core, fc.stringMatching(/^[^<>\r\n]{1,10}$/), (a, b, junk) => {
        expect(messageIdOf(headerFields(mail(`Message-ID: <${a}>`)))).toBe(`<${a}>`);
        fc.pre(junk.trim().length > 0);
        for (const value of [`${junk} <${a}>`, `<${a}> ${junk}`, `<${a}> <${b}>`, `<${a}>\nMessage-ID: <${b}>`])
          expect(messageIdOf(headerFields(mail(`Message-ID: ${value}`)))).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('the content hash follows From, Subject, Date and the body, not the trace fields', () => {
    const base = 'From: a@b.test\nSubject: Hi\nDate: Mon, 1 Jan 2026 10:00:00 +0000\nMessage-ID: <x@y.test>';
    const hash = (raw: Buffer) => contentHash(raw, headerFields(raw));
    const h = hash(mail(base));
    expect(hash(mail(`Received: from relay by mx; today\nDKIM-Signature: v=1; d=b.test\nReturn-Path: <a@b.test>\n${base}`))).toBe(h);
    expect(hash(mail(base.replace('Subject: Hi', 'Subject: Ho')))).not.toBe(h);
    expect(hash(mail(base.replace('a@b.test', 'c@b.test')))).not.toBe(h);
    expect(hash(mail(base.replace('10:00:00', '10:00:01')))).not.toBe(h);
    expect(hash(mail(base, 'Hello!\r\n'))).not.toBe(h);
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        expect(hash(mail(base, a))).not.toBe(hash(mail(base, b)));
      }),
    );
  });

  it('counts every From address, over every From field', () => {
    expect(fromAddressCount(headerFields(mail('From: "A, B" <a@b.test>')))).toBe(1);
    expect(fromAddressCount(headerFields(mail('From: a@b.test, c@d.test')))).toBe(2);
    expect(fromAddressCount(headerFields(mail('From: a@b.test\nFrom: c@d.test')))).toBe(2);
    expect(fromAddressCount(headerFields(mail('Subject: none')))).toBe(0);
    fc.assert(
      fc.property(fc.array(fc.emailAddress(), { minLength: 1, maxLength: 5 }), (addresses) => {
        expect(fromAddressCount(headerFields(mail(`From: ${addresses.join(', ')}`)))).toBe(addresses.length);
      }),
    );
  });
});
