/**
 * The time module: the calendar and time-zone arithmetic (./calendar.ts) and the definition of a first reply
 * (./firstReply.ts), shared by the reports and SLA so that both count days and first replies the same way.
 */
export { DAY_MS, bucketStartDay, bucketsOf, dayString, localMidnight, nextBucketDay, type CalendarBucket } from './calendar.js';
export { isFirstReply } from './firstReply.js';
