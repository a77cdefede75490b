/** Our replies' threading headers (mail/references.ts): a fast-check property over random conversations (Message-IDs are unique). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { earlierIds, MAX_EARLIER, type ConversationMail } from './references.js';

const mail = fc.record({ messageId: fc.integer({ min: 1, max: 400 }).map((n) => `<m${n}@x.test>`), requester: fc.boolean() });

describe('earlierIds', () => {
  it('at most 19, in time order, from the requester’s first mail to their latest (the In-Reply-To); our replies alone otherwise', () => {
    fc.assert(
      fc.property(fc.uniqueArray(mail, { selector: (m) => m.messageId, maxLength: 80 }), (conversation: ConversationMail[]) => {
        const ids = earlierIds(conversation);
        expect(ids.length).toBeLessThanOrEqual(MAX_EARLIER);
        expect(new Set(ids).size).toBe(ids.length);
        const requester = conversation.filter((m) => m.requester);
        if (!requester.length) {
          if (conversation.length) expect(ids[ids.length - 1]).toBe(conversation[conversation.length - 1].messageId);
          return;
        }
        expect(ids[ids.length - 1]).toBe(requester[requester.length - 1].messageId);
        expect(ids[0]).toBe(requester[0].messageId);
        // Time order, and nothing before the requester's first mail.
        const at = (id: string) => conversation.findIndex((m) => m.messageId === id);
        for (let i = 1; i < ids.length; i++) expect(at(ids[i])).toBeGreaterThan(at(ids[i - 1]));
      }),
      { numRuns: 500 },
    );
  });
});
