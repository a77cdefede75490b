/**
 * Keeps mail not ticketed FULCRUM_MAIL_NOT_TICKETED_DAYS days (docs/email.md "Mail not ticketed"): a gateway with
 * the listener on removes older such mail at start and then every hour (services/notTicketedMail.ts). Several
 * gateways may sweep at once: each delete is one idempotent statement. Once the rules core's job table exists,
 * this becomes one of its jobs.
 */
import { notTicketedMail, type ServiceDeps } from '@fulcrum/schema';

export interface NotTicketedSweep {
  stop(): void;
}

export function startNotTicketedSweep(
  deps: ServiceDeps,
  options: { days?: number; everyMs?: number; log: (error: unknown, where: string) => void },
): NotTicketedSweep {
  const days = options.days ?? notTicketedMail.DEFAULT_NOT_TICKETED_DAYS;
  const sweep = () => void notTicketedMail.purgeNotTicketed(deps, days).catch((error) => options.log(error, 'mail: removing old mail not ticketed'));
  sweep();
  const timer = setInterval(sweep, options.everyMs ?? 60 * 60 * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
