/**
 * Shared by the incoming-mail tests: fixed DNS answers for mailauth, a nodemailer client of the
 * gateway's SMTP listener, and reading what a mail became.
 */
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Orm } from '@fulcrum/schema';
import type { TestClient } from '../../src/testing/client.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from '../../src/testing/harness.js';
import { startSmtp, type TestSmtp } from '../../src/testing/smtp.js';

/**
 * Fixed DNS: `good.test` lets 127.0.0.1 send (SPF pass, DMARC pass by alignment); `bank.test` lets no one send and
 * publishes DMARC p=reject (a mail from 127.0.0.1 claiming it fails DMARC); every other name does not exist.
 */
export const FIXED_DNS: Record<string, string[][]> = {
  'TXT good.test': [['v=spf1 ip4:127.0.0.1 -all']],
  'TXT _dmarc.good.test': [['v=DMARC1; p=reject']],
  'TXT bank.test': [['v=spf1 -all']],
  'TXT _dmarc.bank.test': [['v=DMARC1; p=reject']],
};

export async function fixedResolver(name: string, rrtype: string): Promise<string[][]> {
  const answer = FIXED_DNS[`${rrtype} ${name.toLowerCase()}`];
  if (answer) return answer;
  throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
}

/** A help desk that takes mail: the listener on a free port (fixed DNS), its replies sent to a real SMTP server, Demo signed in. */
export interface MailDesk {
  smtp: TestSmtp;
  gw: TestGateway;
  demo: TestClient;
}

export async function startMailDesk(
  incomingMail: Partial<NonNullable<TestGatewayOptions['incomingMail']>> = {},
  overrides: Omit<TestGatewayOptions, 'mail' | 'incomingMail'> = {},
): Promise<MailDesk> {
  const smtp = await startSmtp();
  const gw = await startTestGateway({
    mail: { smtpUrl: smtp.url, from: 'Fulcrum Help <help@fulcrum.test>', retryDelaysMs: [200] },
    incomingMail: { listen: '127.0.0.1:0', defaultAgent: 'demo@fulcrum.app', resolver: fixedResolver, ...incomingMail },
    ...overrides,
  });
  return { smtp, gw, demo: await gw.as(0) };
}

/** Stops what startMailDesk started (either may be missing when its set-up failed). */
export async function stopMailDesk(desk: Partial<MailDesk>): Promise<void> {
  await desk.gw?.destroy();
  await desk.smtp?.close();
}

export type SendResult = { ok: true; response: string } | { ok: false; code: number | undefined; response: string };

/** Sends one mail to the listener (nodemailer, plain SMTP on 127.0.0.1); never throws for an SMTP refusal. */
export async function sendTo(port: number, mail: SendMailOptions): Promise<SendResult> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, connectionTimeout: 10_000 });
  try {
    const info = (await transport.sendMail({ to: 'help@fulcrum.test', ...mail })) as { response: string };
    return { ok: true, response: info.response };
  } catch (error) {
    const e = error as { responseCode?: number; response?: string; message: string };
    return { ok: false, code: e.responseCode, response: e.response ?? e.message };
  } finally {
    transport.close();
  }
}

/** The ticket id in the listener's answer ("250 2.6.0 Accepted: ticket #12"), or null. */
export const ticketIn = (result: SendResult) => (result.ok ? Number(/ticket #(\d+)/.exec(result.response)?.[1] ?? NaN) || null : null);

export interface IncomingRow {
  id: number;
  message_id: string;
  ticket_id: number | null;
  requester_message_id: number | null;
  outcome: string;
  reason: string | null;
  auth: string | null;
}

/** The record of an accepted mail by its Message-ID (rows: one per accepted mail). */
export async function incomingRows(orm: Orm, messageId: string): Promise<IncomingRow[]> {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<IncomingRow[]>('select id, message_id, ticket_id, requester_message_id, outcome, reason, auth from incoming_mails where message_id = ?', [
      messageId,
    ]);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    ticket_id: r.ticket_id == null ? null : Number(r.ticket_id),
    requester_message_id: r.requester_message_id == null ? null : Number(r.requester_message_id),
  }));
}

let n = 0;
/** A fresh Message-ID of a test mail. */
export const freshId = (tag = 'mail') => `<${tag}-${Date.now().toString(36)}-${++n}@client.test>`;
