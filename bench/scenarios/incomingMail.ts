/**
 * Scenario 14 (incoming mail): mail through the SMTP listener, on SQLite and on PostgreSQL + Redis.
 *
 * The gateway listens for SMTP on 127.0.0.1 (FULCRUM_SMTP_LISTEN), new addresses owned by the demo agent
 * (FULCRUM_MAIL_DEFAULT_AGENT), with DNS answered on the spot (BENCH_FIXED_DNS: every look-up "not found", as a
 * machine without the sender's records gets; the listener's real resolver waits up to 2 s per look-up). The load
 * side sends BENCH_MAIL_MESSAGES mails (default 300) with nodemailer over 10 pooled SMTP connections, each from its
 * own new address, with about 100 kB of text and a 50 kB PNG: each becomes a new ticket with its image.
 *
 * Measured per mail: the SMTP transaction (from sending to the 250, which the listener gives only once the ticket is
 * committed) and the time from the 250 to the ticket being readable over GraphQL (the demo agent's `ticket(id)` of the
 * ticket the 250 names, asked at once and again every 20 ms until found). Goal: p99 ≤ 1 s. Messages per second
 * over the whole run. A sample of the tickets is read back: title from the subject, the image kept.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { PNG } from 'pngjs';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { percentile, sleep } from '../../gateway/src/testing/measure.js';
import { freePort } from '../../gateway/src/testing/processes.js';
import { gateway, gql, login, rows, stop, tmp } from '../context.js';
import { log, progress } from '../lib.js';
import { fmt, fmtInt } from '../report.js';

const MESSAGES = Number(process.env.BENCH_MAIL_MESSAGES ?? 300);
const CONNECTIONS = 10;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUFFIX = ' (PostgreSQL + Redis)';

/** A free TCP port on 127.0.0.1 (asked of the system, then released for the gateway). */
/** A PNG of noise of about 50 kB (noise does not compress). */
function noisePng(): Buffer {
  const png = new PNG({ width: 122, height: 122 });
  randomBytes(png.data.length).copy(png.data);
  for (let i = 3; i < png.data.length; i += 4) png.data[i] = 255;
  return PNG.sync.write(png);
}

/** About 100 kB of plain text in paragraphs, with the mail's token in the first line. */
function body(token: string): string {
  const paragraph = 'The printer in the second floor office shows an error after the update, and the queue keeps every job. ';
  const lines = [`Hello, ticket token ${token}.`];
  while (lines.join('\n\n').length < 100_000) lines.push(paragraph.repeat(8));
  return lines.join('\n\n');
}

interface Measured {
  label: string;
  smtp: number[];
  readable: number[];
  missing: number;
  seconds: number;
  imageBytes: number;
}

async function measureOn(postgres: boolean, label: string): Promise<Measured> {
  const database = postgres ? await createPostgresDatabase() : null;
  const port = await freePort();
  const env: Record<string, string> = {
    FULCRUM_SMTP_LISTEN: `127.0.0.1:${port}`,
    FULCRUM_MAIL_DEFAULT_AGENT: 'demo@fulcrum.app',
    BENCH_FIXED_DNS: '1',
    ...(database ? { DATABASE_URL: database.url, REDIS_URL } : {}),
  };
  const gw = await gateway(join(tmp, `mail-${postgres ? 'postgres' : 'sqlite'}`), { env });
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
  });
  try {
    const demo = await login(gw.url, 0);
    const image = noisePng();
    const smtp: number[] = [];
    const readable: number[] = [];
    let missing = 0;
    let next = 0;
    let done = 0;
    // The listener's 250 names the ticket ("2.6.0 Accepted: ticket #123"): read it by id, as an agent's screen would.
    type Found = { id: number; title: string; image: { id: number } | null } | null;
    const find = async (id: number): Promise<Found> =>
      ((await gql(gw.url, demo, 'query($id: Int!) { ticket(id: $id) { id title image { id } } }', { id }).catch(() => ({ ticket: null }))) as { ticket: Found })
        .ticket;
    const one = async () => {
      for (let i = next++; i < MESSAGES; i = next++) {
        const token = `m${i}x${randomBytes(4).toString('hex')}`;
        const sent = performance.now();
        const info = (await transport.sendMail({
          from: `"Bench Sender ${i}" <sender.${token}@example.com>`,
          to: 'support@fulcrum.test',
          subject: `Printer error ${token}`,
          text: body(token),
          attachments: [{ filename: 'screenshot.png', content: image, contentType: 'image/png' }],
        })) as { response?: string };
        const accepted = performance.now();
        smtp.push(accepted - sent);
        const id = Number(/ticket #(\d+)/.exec(info.response ?? '')?.[1]);
        if (!id) throw new Error(`mail ${i}: the 250 names no ticket: ${info.response}`);
        let ticket = await find(id);
        while (!ticket && performance.now() - accepted < 5000) {
          await sleep(20);
          ticket = await find(id);
        }
        if (!ticket) missing += 1;
        else {
          readable.push(performance.now() - accepted);
          if (i % 50 === 0 && (!ticket.image || !ticket.title.includes('Printer error')))
            throw new Error(`mail ${i}: its ticket lacks the subject or the image`);
        }
        done += 1;
        if (done % 25 === 0) progress(`  14. ${label || 'SQLite'}: ${done} / ${MESSAGES} mails`);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, one));
    const seconds = (performance.now() - started) / 1000;
    log(`  14. ${fmtInt(MESSAGES)} mails${label} in ${fmt(seconds)} s`);
    return { label, smtp, readable, missing, seconds, imageBytes: image.length };
  } finally {
    transport.close();
    await stop(gw);
    await database?.drop().catch(() => undefined);
  }
}

function addRows(m: Measured): void {
  const p99 = percentile(m.readable, 99);
  rows.push(
    {
      scenario: `14a. Incoming mail: ~100 kB mails with a ${Math.round(m.imageBytes / 1024)} kB image through the SMTP listener, ${CONNECTIONS} connections, each a new ticket${m.label}`,
      value: `${fmt(MESSAGES / m.seconds, 1)} mails/s; SMTP transaction (send → 250) p50 ${fmt(percentile(m.smtp, 50))} ms, p99 ${fmt(percentile(m.smtp, 99))} ms`,
      budget: '—',
      met: null,
    },
    {
      scenario: `14b. Incoming mail: from the 250 to the ticket readable over GraphQL${m.label}`,
      p50: percentile(m.readable, 50),
      p99,
      budget: 'p99 ≤ 1 s, none missing',
      met: p99 <= 1000 && m.missing === 0,
      note: `${fmtInt(m.readable.length)} mails${m.missing ? `; ${m.missing} MISSING after 5 s` : ''}; the readability check is the demo agent's ticket(id) of the ticket the 250 names`,
    },
  );
}

/** Scenario 14 on SQLite and, when `postgres`, on PostgreSQL + Redis. */
export async function incomingMail(postgres: boolean): Promise<void> {
  addRows(await measureOn(false, ''));
  if (!postgres) return;
  try {
    addRows(await measureOn(true, SUFFIX));
  } catch (error) {
    rows.push({ scenario: `14. Incoming mail${SUFFIX}: failed`, value: (error as Error).message.split('\n')[0].slice(0, 300), budget: '—', met: false });
  }
}
