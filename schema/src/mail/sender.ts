/**
 * The mail sender: one per gateway, all of them sharing the database (docs/email.md).
 *
 *   reply's transaction --> mail_outbox (pending) --claim (lease)--> SMTP (nodemailer) --> reply's delivery state
 *
 * - A reply writes its mail into the outbox in its own transaction (services/requesterReplies.ts): a committed
 *   reply has its mail on disk, a rolled-back one none.
 * - Claiming (THE claim-with-lease, jobs/claim.ts) moves due rows to `sending` with a lease (next_attempt_at = lease end) in one transaction; on
 *   PostgreSQL the rows are selected FOR UPDATE SKIP LOCKED, so two gateways never claim the same mail: it is sent
 *   once. A gateway that dies mid-send leaves a lease that expires, and another sends it (at least once). SQLite
 *   has one gateway per file, which releases its previous life's leases at start.
 * - The result goes to the reply (SENT, or after the last attempt FAILED, with the attempts and the server's last
 *   answer) and the outbox row is deleted; a failed attempt before the last is retried after the next delay.
 */
import type { Knex } from '@mikro-orm/knex';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Em, Orm } from '../database.js';
import { claimLeased, nextDue, releaseLeases, type LeasedTable } from '../jobs/claim.js';
import { WorkerLoop } from '../workerLoop.js';
import type { OutboundMail } from './compose.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** Mails claimed per pass. */
const BATCH = 20;
/** The shortest time between two passes' starts unless the first was full (a mail waits at most this much longer). */
const GATHER_MS = 50;

/** Delays before each retry (then FAILED): 10 s, 1 min, 5 min, 30 min, 2 h, 6 h; each varied by ±10 %. */
export const DEFAULT_MAIL_RETRY_DELAYS_MS = [10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 360 * MINUTE];

/** The outbox's lease columns (jobs/claim.ts): a mail in `sending` is leased until next_attempt_at. */
const MAIL_OUTBOX: LeasedTable = { table: 'mail_outbox', due: 'next_attempt_at', state: 'state', waiting: 'pending', leased: 'sending', attempts: 'attempts' };

export interface MailSenderOptions {
  /** SMTP_URL, e.g. smtp://user:pass@mail.example.com:587 or smtps://...:465. */
  smtpUrl: string;
  retryDelaysMs?: number[];
  /** How long a claimed mail is reserved to one gateway. */
  leaseMs?: number;
  /** How often the outbox is looked at when nothing woke the sender (other gateways' replies): 1 s on PostgreSQL. */
  pollMs?: number;
  /** Replies' delivery states changed (sent, failed or retried; one call per pass): the gateway announces them live. */
  onDelivery?: (changes: { replyId: number; ticketId: number }[]) => void;
  log?: (error: unknown, where: string) => void;
}

interface Claimed {
  id: number;
  replyId: number;
  ticketId: number;
  attempts: number;
  /** How many files the reply has (read at send time only when it has some). */
  files: number;
  mail: OutboundMail;
}

interface Outcome {
  claimed: Claimed;
  sent: boolean;
  response: string;
}

export class MailSender {
  private readonly transport: Transporter;
  private readonly retryDelaysMs: number[];
  private readonly leaseMs: number;
  private readonly postgres: boolean;
  private readonly log: (error: unknown, where: string) => void;
  private readonly loop: WorkerLoop;
  private lastPassAt = 0;

  constructor(
    private readonly orm: Orm,
    private readonly options: MailSenderOptions,
  ) {
    // Pooled: the SMTP connection (TCP, EHLO, STARTTLS, AUTH) is kept and reused across mails instead of opened per
    // mail (bench row 11a: a new connection per mail held the outbox to ~35-42 mails/s on a loaded machine).
    this.transport = nodemailer.createTransport({ url: options.smtpUrl, pool: true });
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_MAIL_RETRY_DELAYS_MS;
    this.leaseMs = options.leaseMs ?? 2 * MINUTE;
    this.postgres = orm.config.getDriver() instanceof PostgreSqlDriver;
    this.log = options.log ?? ((error, where) => console.error(`[fulcrum] ${where}:`, error));
    this.loop = new WorkerLoop({
      name: 'mail: sender loop',
      tick: () => this.tick(),
      nextDue: () => nextDue(this.em(), MAIL_OUTBOX),
      pollMs: options.pollMs ?? (this.postgres ? SECOND : MINUTE),
      log: this.log,
    });
  }

  get maxAttempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  private em(): Em {
    return this.orm.em.fork();
  }

  async start(): Promise<void> {
    if (this.loop.isRunning) return;
    await releaseLeases(this.em(), MAIL_OUTBOX);
    this.loop.start();
  }

  async stop(): Promise<void> {
    if (!this.loop.isRunning) return;
    await this.loop.stop();
    this.transport.close();
  }

  /** Look at the outbox now (a reply of this process committed). */
  wake(): void {
    this.loop.wake();
  }

  /**
   * One pass: claim what is due, send it, record the results of the whole batch in one transaction and announce
   * them in one call (per mail, the recording and the announcement cost as much as the reply's own write).
   * True when there may be more at once.
   */
  async tick(): Promise<boolean> {
    // Replies arriving together are sent together: a pass right after a pass that was not full waits until
    // GATHER_MS after that one's start, so the outbox's claim and record transactions (two each, on the one writer
    // of SQLite) are shared by the replies of those milliseconds instead of paid by one or two of them each.
    const since = Date.now() - this.lastPassAt;
    if (since < GATHER_MS) await new Promise((resolve) => setTimeout(resolve, GATHER_MS - since));
    this.lastPassAt = Date.now();
    const claimed = await this.claim(BATCH);
    if (!claimed.length) return false;
    const outcomes = await Promise.all(claimed.map((mail) => this.send(mail)));
    try {
      await this.record(outcomes);
      this.options.onDelivery?.(outcomes.map(({ claimed: c }) => ({ replyId: c.replyId, ticketId: c.ticketId })));
    } catch (error) {
      this.log(error, 'mail: recording results');
    }
    // A full batch: there may be more waiting, go on at once.
    if (claimed.length === BATCH) this.lastPassAt = 0;
    return true;
  }

  /** Reserves up to `limit` due mails to this gateway (THE claim, jobs/claim.ts) with what sending them needs. */
  async claim(limit: number): Promise<Claimed[]> {
    return claimLeased(this.em(), MAIL_OUTBOX, { limit, leaseMs: this.leaseMs, load: (knex, trx, ids) => this.load(knex, trx, ids) });
  }

  private async load(knex: Knex, trx: Knex.Transaction, ids: number[]): Promise<Claimed[]> {
    const rows: { id: number; reply_id: number; ticket_id: number; attempts: number; files: number | string; message: string }[] = await knex(
      'mail_outbox as o',
    )
      .transacting(trx)
      .join('ticket_replies as r', 'r.id', 'o.reply_id')
      .whereIn('o.id', ids)
      .select(
        'o.id',
        'o.reply_id',
        'r.ticket_id',
        'o.attempts',
        'o.message',
        knex.raw('(select count(*) from reply_attachments a where a.reply_id = o.reply_id) as files'),
      );
    return rows.map((r) => ({
      id: Number(r.id),
      replyId: Number(r.reply_id),
      ticketId: Number(r.ticket_id),
      attempts: Number(r.attempts),
      files: Number(r.files),
      mail: JSON.parse(r.message) as OutboundMail,
    }));
  }

  private nextDelay(attempt: number): number {
    const base = this.retryDelaysMs[Math.min(attempt - 1, this.retryDelaysMs.length - 1)];
    return Math.round(base * (0.9 + 0.2 * Math.random()));
  }

  /** A reply's files (reply_attachments), in upload order, for its mail. */
  private async replyFiles(replyId: number): Promise<{ filename: string; mimeType: string; data: Buffer }[]> {
    const rows: { filename: string; mime_type: string; data: Buffer | Uint8Array }[] = await this.em()
      .getKnex()('reply_attachments')
      .where('reply_id', replyId)
      .orderBy('id')
      .select('filename', 'mime_type', 'data');
    return rows.map((r) => ({ filename: r.filename, mimeType: r.mime_type, data: Buffer.from(r.data) }));
  }

  private async send(claimed: Claimed): Promise<Outcome> {
    try {
      // The reply's files, as MIME attachments: read at send time (the outbox row holds only the mail's text).
      const files = claimed.files ? await this.replyFiles(claimed.replyId) : [];
      const attachments = files.map((f) => ({ filename: f.filename, contentType: f.mimeType, content: f.data }));
      const info = (await this.transport.sendMail({ ...claimed.mail, attachments })) as { response?: string };
      return { claimed, sent: true, response: String(info.response ?? 'sent').slice(0, 500) };
    } catch (error) {
      return { claimed, sent: false, response: String((error as Error)?.message ?? error).slice(0, 500) };
    }
  }

  /**
   * A batch's results: each reply's state (SENT; QUEUED again for a retry; FAILED after the last attempt), attempts
   * and the server's last answer in one UPDATE (CASE by id), the finished rows deleted in one statement, the retried
   * ones rescheduled.
   */
  private async record(outcomes: Outcome[]): Promise<void> {
    await this.em().transactional(async (em) => {
      const knex = em.getKnex();
      const trx = em.getTransactionContext<Knex.Transaction>()!;
      const rows = outcomes.map(({ claimed, sent, response }) => {
        const last = claimed.attempts >= this.maxAttempts;
        return { claimed, response, state: sent ? 'SENT' : last ? 'FAILED' : 'QUEUED', done: sent || last };
      });
      const cases = (value: (row: (typeof rows)[number]) => string | number, cast: string) => ({
        sql: `case id ${rows.map(() => `when ? then cast(? as ${cast})`).join(' ')} end`,
        bindings: rows.flatMap((row) => [row.claimed.replyId, value(row)]),
      });
      const state = cases((row) => row.state, 'varchar(255)');
      const attempts = cases((row) => row.claimed.attempts, 'integer');
      const response = cases((row) => row.response, 'text');
      await knex('ticket_replies')
        .transacting(trx)
        .whereIn(
          'id',
          rows.map((row) => row.claimed.replyId),
        )
        // A bounce that arrived first (services/bounces.ts) is the last word on the reply.
        .whereNot('delivery_state', 'BOUNCED')
        .update({
          delivery_state: knex.raw(state.sql, state.bindings),
          delivery_attempts: knex.raw(attempts.sql, attempts.bindings),
          delivery_last_response: knex.raw(response.sql, response.bindings),
        });
      const done = rows.filter((row) => row.done).map((row) => row.claimed.id);
      if (done.length) await knex('mail_outbox').transacting(trx).whereIn('id', done).delete();
      for (const row of rows.filter((r) => !r.done)) {
        await knex('mail_outbox')
          .transacting(trx)
          .where('id', row.claimed.id)
          .update({ state: 'pending', next_attempt_at: new Date(Date.now() + this.nextDelay(row.claimed.attempts)) });
      }
    });
  }
}
