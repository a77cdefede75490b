/**
 * Keeps mail not ticketed FULCRUM_MAIL_NOT_TICKETED_DAYS days (docs/email.md "Mail not ticketed"): older such mail
 * is removed by a recurring job of the job table (schema/src/jobs), one row for the whole installation, due at a
 * gateway's start and then every hour after each run. Only gateways with the listener on handle its kind; the
 * claim's lease makes one of them run it at a time, and a restart or a second gateway enqueueing it again changes
 * nothing (enqueue is idempotent). Each run is one idempotent delete.
 */
import { jobs, notTicketedMail, type JobRunner, type ServiceDeps } from '@fulcrum/schema';

export const NOT_TICKETED_SWEEP_KIND = 'mail.not-ticketed-sweep';

export async function scheduleNotTicketedSweep(
  deps: ServiceDeps,
  runner: JobRunner,
  options: { days?: number; everyMs?: number; log: (error: unknown, where: string) => void },
): Promise<void> {
  const days = options.days ?? notTicketedMail.DEFAULT_NOT_TICKETED_DAYS;
  const everyMs = options.everyMs ?? 60 * 60 * 1000;
  runner.handle(NOT_TICKETED_SWEEP_KIND, async () => {
    // A failed sweep is logged and the next one keeps its hour: the job recurs either way.
    await notTicketedMail.purgeNotTicketed(deps, days).catch((error) => options.log(error, 'mail: removing old mail not ticketed'));
    return { again: new Date(Date.now() + everyMs) };
  });
  await jobs.enqueue(deps.orm.em.fork(), { kind: NOT_TICKETED_SWEEP_KIND, key: 'sweep' });
}
