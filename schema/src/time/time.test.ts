/**
 * The time module on its own: buckets tile a range in order, in any zone (fast-check over dates, spans, buckets and
 * zones), UTC midnights are whole days, and the first-reply predicate's table. The reports' own tests
 * (graphql/reports.test.ts) check the same arithmetic through real reports.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketStartDay, bucketsOf, DAY_MS, dayString, isFirstReply, localMidnight, nextBucketDay, type CalendarBucket } from './index.js';

const ZONES = ['UTC', 'Europe/Berlin', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'America/Havana'];

describe('calendar', () => {
  it('a UTC midnight is the day itself; 2026-03-29 is 23 hours long in Berlin', () => {
    expect(localMidnight(20_000, 'UTC')).toBe(20_000 * DAY_MS);
    const day = Date.UTC(2026, 2, 29) / DAY_MS;
    expect(dayString(day)).toBe('2026-03-29');
    expect(localMidnight(day + 1, 'Europe/Berlin') - localMidnight(day, 'Europe/Berlin')).toBe(23 * 3_600_000);
  });

  it('property: buckets start on their bucket day, follow each other, and their bounds increase inside the range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40_000 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom<CalendarBucket>('DAY', 'WEEK', 'MONTH'),
        fc.constantFrom(...ZONES),
        (from, span, bucket, zone) => {
          const { starts, bounds, end } = bucketsOf(from, from + span, bucket, zone);
          expect(starts.length).toBe(bounds.length);
          expect(starts[0]).toBe(dayString(bucketStartDay(from, bucket)));
          for (let i = 1; i < starts.length; i += 1) {
            expect(starts[i]).toBe(dayString(nextBucketDay(Date.parse(starts[i - 1]) / DAY_MS, bucket)));
            expect(bounds[i]).toBeGreaterThan(bounds[i - 1]);
          }
          expect(bounds[0]).toBe(localMidnight(from, zone));
          expect(end).toBeGreaterThan(bounds[bounds.length - 1]);
        },
      ),
    );
  });
});

describe('first reply', () => {
  it('is a reply by an agent or through an API token, nothing else', () => {
    expect(isFirstReply('REPLY_ADDED', 'AGENT')).toBe(true);
    expect(isFirstReply('REPLY_ADDED', 'API_TOKEN')).toBe(true);
    for (const actor of ['SYSTEM', 'REQUESTER', 'CUSTOMER']) expect(isFirstReply('REPLY_ADDED', actor)).toBe(false);
    for (const kind of ['NOTE_ADDED', 'UPDATED', 'CREATED', 'REQUESTER_MESSAGE_ADDED']) expect(isFirstReply(kind, 'AGENT')).toBe(false);
  });
});
