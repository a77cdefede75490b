/**
 * Scenario 11 ("Fast"): replies to the requester go out by mail through the mail outbox
 * (schema/src/services/requesterReplies.ts, schema/src/mail/sender.ts, docs/email.md). The gateway (bench/server.ts,
 * pinned to the server core) starts with SMTP_URL pointing at a real SMTP server on 127.0.0.1 that this process
 * runs (smtp-server + mailparser: gateway/src/testing/smtp.ts, the one the tests use), on a fresh workspace with the
 * demo seed; Marnie replies on 100 of her tickets (created through REST), each requester a demo customer.
 *
 * - 11a: reply acknowledged → the SMTP server received its mail, p50 and p99, at BENCH_REPLY_RATE replies per second
 *   (default 100) for BENCH_SECONDS (after a 2 s warm-up at the same rate, also checked). Open loop: reply n is sent
 *   at start + n / rate whether or not the earlier ones were answered (GraphQL `replyToRequester`, fetch with
 *   keep-alive). Each reply's text carries a token of its own; every mail received is matched to its reply by that
 *   token (and its Message-ID must be new): a reply acknowledged without a mail within 30 s is lost, a token or
 *   Message-ID received twice is a duplicate, and either (or a failed request, or a send rate under 90 % of the one
 *   asked) fails the row. The latency is from the answer of `replyToRequester` reaching this process to the mail's
 *   end of data at the SMTP server, in the same process (one clock). The server keeps each mail raw and parses it
 *   after the timed runs (`parseLater`): the mail server that receives our replies is never on the gateway's
 *   machine, and on two cores parsing hundreds of mails a second here took CPU from the gateway being measured.
 * - 11b: the reply's write path with its outbox against a note's: GraphQL `replyToRequester` and `addTicketNote`
 *   against the same gateway (mail sender running, SMTP server answering), runs alternating note, reply, note,
 *   reply... (BENCH_WRITE_PAIRS pairs, default 7; each a 2 s warm-up and a BENCH_PAIR_SECONDS run at
 *   BENCH_WRITE_CONNECTIONS connections, autocannon on the load core), request n of a run writing on ticket
 *   n mod 100. Goal: the mean reply throughput ≥ 0.9× the mean note throughput. Checked: one write of each kind
 *   first (the reply QUEUED); after the runs every acknowledged reply must have arrived as a mail (distinct
 *   Message-IDs ≥ acknowledged; none twice).
 *
 * On SQLite, and on PostgreSQL + Redis when the bench's PostgreSQL pass runs (BENCH_PG, bench/scenarios/postgres.ts),
 * each on a fresh database, with its own SMTP server.
 */
import { join } from 'node:path';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../../gateway/src/testing/smtp.js';
import { PAIRS, PAIR_SECONDS, SECONDS, WRITE_CONNECTIONS, check, pairedNote, pairedRatio, failures, gateway, login, rows, stop, tmp } from '../context.js';
import { autocannon, log, progress, type Child, type LoadResult, type LoadSpec } from '../lib.js';
import { fmt, fmtInt } from '../report.js';

const RATE = Number(process.env.BENCH_REPLY_RATE ?? 100);
const TICKETS = 100;
const MARNIE_ID = 2;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** How long after the last acknowledgement the mails may still arrive before the missing ones count as lost. */
const DRAIN_MS = 30_000;
const REPLY = 'mutation($ticketId: Int!, $body: String!) { replyToRequester(ticketId: $ticketId, body: $body) { id body delivery { state } } }';
const NOTE = 'mutation($ticketId: Int!, $body: String!) { addTicketNote(ticketId: $ticketId, body: $body) { id body } }';
const TOKEN = /bench-reply-([a-z0-9]+-\d+)/;

interface Setup {
  gw: Child;
  smtp: TestSmtp;
  marnie: string;
  ids: number[];
}

/** A fresh workspace's gateway mailing to a new SMTP server, and 100 tickets of Marnie's to reply on. */
async function setUp(label: string, dir: string, env: Record<string, string>): Promise<Setup> {
  // Mails are parsed after the timed runs, not as they arrive (gateway/src/testing/smtp.ts `parseLater`).
  const smtp = await startSmtp(0, { parseLater: true });
  progress(`11. replies${label}: starting the gateway (SMTP_URL ${smtp.url})`);
  const gw = await gateway(dir, { env: { ...env, SMTP_URL: smtp.url } });
  const marnie = await login(gw.url, 1);
  const headers = { 'content-type': 'application/json', cookie: marnie };
  const customers = (await (await fetch(`${gw.url}/api/customers/`, { headers })).json()) as { id: number }[];
  const ids: number[] = [];
  for (let i = 0; i < TICKETS; i++) {
    const res = await fetch(`${gw.url}/api/tickets/create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: `Reply target ${i}`,
        type: 'Question',
        priority: 'Medium',
        assignee: MARNIE_ID,
        requester: customers[i % customers.length].id,
        apply_macro: 1,
        description: 'Replied to by the benchmark.',
      }),
    });
    if (!res.ok) throw new Error(`11: creating tickets: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: number }).id);
  }
  return { gw, smtp, marnie, ids };
}

const tokenOf = (mail: ReceivedMail) => TOKEN.exec(mail.parsed.text ?? '')?.[1];
const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

interface OpenLoop {
  sent: number;
  /** token → when its acknowledgement arrived (performance.now()). */
  acked: Map<string, number>;
  /** Each acknowledged reply's time from its send to its answer. */
  answerMs: number[];
  failed: string[];
  seconds: number;
}

/** Replies sent on a schedule (RATE per second for `seconds`), not waiting for one another; every answer checked. */
async function openLoop(s: Setup, run: string, seconds: number): Promise<OpenLoop> {
  const acked = new Map<string, number>();
  const answerMs: number[] = [];
  const failed: string[] = [];
  const pending: Promise<void>[] = [];
  const total = Math.round(RATE * seconds);
  const t0 = performance.now();
  for (let n = 0; n < total; n++) {
    await sleep(t0 + (n * 1000) / RATE - performance.now());
    const token = `${run}-${n}`;
    const body = `Thank you for writing. bench-reply-${token}`;
    const sentAt = performance.now();
    pending.push(
      fetch(`${s.gw.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: s.marnie },
        body: JSON.stringify({ query: REPLY, variables: { ticketId: s.ids[n % TICKETS], body } }),
        signal: AbortSignal.timeout(30_000),
      }).then(
        async (res) => {
          const answer = (await res.json()) as { data?: { replyToRequester?: { body: string; delivery: { state: string } } }; errors?: unknown };
          const at = performance.now();
          const reply = answer.data?.replyToRequester;
          if (!res.ok || answer.errors || reply?.body !== body || reply.delivery.state !== 'QUEUED')
            failed.push(`${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
          else {
            acked.set(token, at);
            answerMs.push(at - sentAt);
          }
        },
        (error: Error) => void failed.push(error.message),
      ),
    );
  }
  const sentSeconds = (performance.now() - t0) / 1000;
  await Promise.all(pending);
  return { sent: total, acked, answerMs, failed, seconds: sentSeconds };
}

interface Matched {
  latencies: number[];
  lost: number;
  duplicated: number;
  unknown: number;
  /** From the first acknowledgement to the last mail received. */
  drainSeconds: number;
}

/** Waits (up to DRAIN_MS) for the mails of the acknowledged replies of `loop` (tokens `run`-n) and matches each to its reply. */
async function match(smtp: TestSmtp, loop: OpenLoop, run: string): Promise<Matched> {
  const acked = loop.acked;
  const mine = (m: ReceivedMail) => acked.has(tokenOf(m) ?? '');
  // The mails parsed so far (the SMTP server parses after the runs: gateway/src/testing/smtp.ts `parseLater`).
  const tokens = async () => new Set((await smtp.parseAll()).filter(mine).map(tokenOf));
  const until = performance.now() + DRAIN_MS;
  while ((await tokens()).size < acked.size && performance.now() < until) await sleep(50);
  await sleep(500); // a duplicate sent right after the last mail still counts
  const all = await smtp.parseAll();
  const first = new Map<string, ReceivedMail>();
  const messageIds = new Set<string>();
  let duplicated = 0;
  let unknown = 0;
  for (const mail of all) {
    const token = tokenOf(mail);
    if (!token?.startsWith(`${run}-`)) continue;
    if (!acked.has(token)) unknown++;
    else if (first.has(token) || messageIds.has(mail.parsed.messageId ?? '')) duplicated++;
    else first.set(token, mail);
    messageIds.add(mail.parsed.messageId ?? '');
  }
  const latencies = [...first].map(([token, mail]) => mail.at - acked.get(token)!).sort((a, b) => a - b);
  const ends = [...first.values()].map((m) => m.at);
  const drainSeconds = ends.length ? (Math.max(...ends) - Math.min(...acked.values())) / 1000 : NaN;
  return { latencies, lost: acked.size - first.size, duplicated, unknown, drainSeconds };
}

/** 11a: the open-loop run and its mails, one row. */
async function latencyRow(s: Setup, label: string, run: string): Promise<void> {
  progress(`11a. reply → mail${label}: warm-up, 2 s at ${RATE} replies/s`);
  const warm = await openLoop(s, `${run}w`, 2);
  // The warm-up's mails are all in (or lost) before the timed run starts: its backlog is not the timed run's.
  const matchedWarm = await match(s.smtp, warm, `${run}w`);
  progress(`11a. reply → mail${label}: ${SECONDS} s at ${RATE} replies/s, open loop`);
  const timed = await openLoop(s, `${run}t`, SECONDS);
  const m = await match(s.smtp, timed, `${run}t`);
  const answered = [...timed.answerMs].sort((a, b) => a - b);
  const failed = [...warm.failed, ...timed.failed];
  const rate = timed.sent / timed.seconds;
  const p50 = quantile(m.latencies, 0.5);
  const p99 = quantile(m.latencies, 0.99);
  const early = m.latencies.filter((l) => l < 0).length;
  const bad = m.lost + m.duplicated + m.unknown + matchedWarm.lost + matchedWarm.duplicated + matchedWarm.unknown;
  log(
    `  11a. reply → mail${label}: ${timed.acked.size} acknowledged, ${m.latencies.length} mails matched, p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms; ` +
      `lost ${m.lost}, duplicated ${m.duplicated}; last mail ${fmt(m.drainSeconds)} s after the first answer${failed.length ? `; ${failed.length} failed requests: ${failed[0]}` : ''}`,
  );
  rows.push({
    scenario: `11a. Reply acknowledged → the test SMTP server received it, ${RATE} replies/s open loop${label}`,
    p50,
    p99,
    budget: 'every reply mailed once (no loss, no duplicate); p50/p99 reported',
    met: bad === 0 && failed.length === 0 && rate >= 0.9 * RATE,
    note: [
      `${fmtInt(timed.sent)} replies sent in ${fmt(timed.seconds)} s (${fmt(rate)}/s), ${fmtInt(timed.acked.size)} acknowledged, ${fmtInt(m.latencies.length)} mails matched by the token in their text`,
      `replyToRequester answered in p50 ${fmt(quantile(answered, 0.5))} ms, p99 ${fmt(quantile(answered, 0.99))} ms`,
      `the last mail arrived ${fmt(m.drainSeconds)} s after the first answer (${fmt(m.latencies.length / m.drainSeconds)} mails/s through the outbox)`,
      `lost ${m.lost}, duplicated ${m.duplicated}, unknown ${m.unknown} (warm-up: ${warm.acked.size} acknowledged, lost ${matchedWarm.lost}, duplicated ${matchedWarm.duplicated})`,
      early ? `${early} mails arrived before their reply's answer (negative latencies kept)` : '',
      failed.length ? `FAILED REQUESTS: ${failed.length} of ${warm.sent + timed.sent} (${failed[0]})` : '',
      rate < 0.9 * RATE ? `SEND RATE ${fmt(rate)}/s UNDER 90 % OF ${RATE}/s` : '',
    ]
      .filter(Boolean)
      .join('; '),
  });
}

const ok = (r: LoadResult) => r.requests - r.non2xx - (r.mismatches ?? 0);

/** 11b: replies against notes, alternated on the same gateway, one pair of rows. */
async function writeRows(s: Setup, label: string, run: string): Promise<void> {
  const headers = { 'content-type': 'application/json', cookie: s.marnie };
  const requests = (query: string, what: string) =>
    Array.from({ length: 2 * TICKETS }, (_, n) => ({
      path: '/graphql',
      body: JSON.stringify({ query, variables: { ticketId: s.ids[n % TICKETS], body: `${what} ${n} from the benchmark. bench-11b-${run}` } }),
    }));
  const spec = (query: string, what: string): LoadSpec => ({
    url: `${s.gw.url}/graphql`,
    method: 'POST',
    headers,
    requests: requests(query, what),
    connections: WRITE_CONNECTIONS,
  });
  const sides = { note: spec(NOTE, 'Note'), reply: spec(REPLY, 'Reply') };
  let repliesAcked = 0;
  await check({ ...sides.note, body: sides.note.requests![0].body }, (b) => {
    if (typeof b.data?.addTicketNote?.id !== 'number') throw new Error(`11b: addTicketNote answered ${JSON.stringify(b).slice(0, 200)}`);
  });
  await check({ ...sides.reply, body: sides.reply.requests![0].body }, (b) => {
    if (b.data?.replyToRequester?.delivery?.state !== 'QUEUED') throw new Error(`11b: replyToRequester answered ${JSON.stringify(b).slice(0, 200)}`);
  });
  repliesAcked++;
  const results = { note: [] as LoadResult[], reply: [] as LoadResult[] };
  for (let p = 0; p < PAIRS; p++)
    for (const kind of ['note', 'reply'] as const) {
      const what = `11b. ${kind}${label} (${p + 1}/${PAIRS})`;
      progress(`  ${what}: warm-up`);
      const warm = await autocannon({ ...sides[kind], seconds: 2 });
      progress(`  ${what}: ${PAIR_SECONDS} s at ${WRITE_CONNECTIONS} connections`);
      const r = await autocannon({ ...sides[kind], seconds: PAIR_SECONDS });
      if (kind === 'reply') repliesAcked += ok(warm) + ok(r);
      const failed = failures(r);
      log(`  ${what}: ${fmtInt(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${failed ? `; ${failed}` : ''}`);
      results[kind].push(r);
    }
  // Every acknowledged reply must come out as one mail (more arrive: the writes in flight when a run stopped).
  const marker = `bench-11b-${run}`;
  // Arrival is counted on the raw mails (the marker is plain ASCII in the text part), within DRAIN_MS; then all are
  // parsed, however long that takes (tens of thousands of mails: longer than the drain itself).
  let scanned = 0;
  let arrived = 0;
  const arrivedRaw = () => {
    for (; scanned < s.smtp.received.length; scanned++) if (s.smtp.received[scanned].raw.includes(marker)) arrived++;
    return arrived;
  };
  const until = performance.now() + DRAIN_MS;
  while (arrivedRaw() < repliesAcked && performance.now() < until) await sleep(100);
  await sleep(500);
  const received = (await s.smtp.parseAll()).filter((m) => m.parsed.text?.includes(marker));
  const distinct = new Set(received.map((m) => m.parsed.messageId)).size;
  const duplicated = received.length - distinct;
  const covered = distinct >= repliesAcked && duplicated === 0;

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rps = { note: mean(results.note.map((r) => r.rps)), reply: mean(results.reply.map((r) => r.rps)) };
  const paired = pairedRatio(results.reply, results.note);
  const ratio = paired.ratio;
  const failed = [...results.note, ...results.reply].map(failures).filter(Boolean);
  const list = (rs: LoadResult[]) => rs.map((r) => fmtInt(r.rps)).join(', ');
  rows.push(
    {
      scenario: `11b. Write path: GraphQL \`addTicketNote\` (the yardstick), ${WRITE_CONNECTIONS} connections${label}`,
      rps: rps.note,
      p50: mean(results.note.map((r) => r.p50)),
      p99: Math.max(...results.note.map((r) => r.p99)),
      budget: '—',
      met: null,
      note: `runs ${list(results.note)} req/s, alternated with the row below on the same gateway`,
    },
    {
      scenario: `11b. Write path: GraphQL \`replyToRequester\` with its mail outbox (mail sender and SMTP server running), ${WRITE_CONNECTIONS} connections${label}`,
      rps: rps.reply,
      p50: mean(results.reply.map((r) => r.p50)),
      p99: Math.max(...results.reply.map((r) => r.p99)),
      ratio,
      budget: 'ratio to the note row above ≥ 0.9',
      met: ratio >= 0.9 && !failed.length && covered,
      note: [
        `ratio column: to the notes, the ${pairedNote(paired)}; replies: ${list(results.reply)} req/s`,
        `${fmtInt(distinct)} mails received for ${fmtInt(repliesAcked)} acknowledged replies${distinct < repliesAcked ? ': SOME REPLIES WERE NOT MAILED' : ''}${duplicated ? `; ${duplicated} DUPLICATED` : ''}`,
        ...failed,
      ]
        .filter(Boolean)
        .join('; '),
    },
  );
}

async function measure(label: string, dir: string, env: Record<string, string>, run: string): Promise<void> {
  const s = await setUp(label, dir, env);
  try {
    await latencyRow(s, label, run);
    await writeRows(s, label, run);
  } finally {
    await stop(s.gw);
    await s.smtp.close();
  }
}

/** Scenario 11 on SQLite and, when `postgres`, on PostgreSQL + Redis (a fresh database). */
export async function replies(postgres: boolean): Promise<void> {
  await measure('', join(tmp, 'replies'), {}, 'sqlite');
  if (!postgres) return;
  const database = await createPostgresDatabase();
  try {
    await measure(' (PostgreSQL + Redis)', join(tmp, 'replies-pg'), { DATABASE_URL: database.url, REDIS_URL }, 'pg');
  } finally {
    await database.drop().catch(() => undefined);
  }
}
