/**
 * `npm run bench`: every scenario of docs/performance.md against a real gateway on 127.0.0.1, on temp DATA_DIRs,
 * with the load from other processes. The gateway (and the baseline) run on core 0, the load on core 1 (taskset,
 * where present). Prints one table and writes it into docs/performance.md between the bench markers.
 *
 *   BENCH_SECONDS=10     duration of each throughput run (after a 2 s warm-up run)
 *   BENCH_SCALE=1000,100000,1000000   the scale points of scenario 4
 *   BENCH_SUBSCRIBERS=1000            scenario 5's sockets
 *   BENCH_ONLY=1,2,4     run only these scenarios (the table then says which were skipped)
 *   BENCH_MESSAGES=1000000            scenario 8's messages (the message center at scale)
 *   BENCH_LIVE_PRESENCE=0             scenario 5's sockets without the presence subscription
 *   BENCH_PG=1 / 0       rows 1, 2, 3, 10, 11, 12, 13 and 14 again on PostgreSQL + Redis (default: when 127.0.0.1:5432 and 6379 answer)
 *   BENCH_TIMELINE_EVENTS=1000000     scenario 10's events in the table (the timeline at scale)
 *   BENCH_WRITE_PAIRS=7  the paired write rows' alternated pairs (10c/10d without/with, 11b note/reply, 12c without/with)
 *   BENCH_PAIR_SECONDS=5 each run of those pairs
 *   BENCH_REPLY_RATE=100 scenario 11's open-loop replies per second
 *   BENCH_REPORT_TICKETS=100000 scenario 12's tickets (reports at scale)
 *   BENCH_REPORT_DB=sqlite|postgres  scenario 12 on that database only (default: SQLite, then PostgreSQL + Redis with the PostgreSQL pass)
 *   BENCH_VIEW_TICKETS=1000000  scenario 13's tickets (views at scale); BENCH_VIEW_WRITES=60 its takes
 *   BENCH_MAIL_MESSAGES=300     scenario 14's mails through the SMTP listener
 *   BENCH_PROFILE=0      skip the CPU profile of the dashboard load (=rest: profile the REST list's load instead)
 *   BENCH_VERBOSE=1      show the gateway's output
 *
 * This file seeds the main workspace and runs the scenarios in order; each lives in bench/scenarios/, the
 * shared state and measuring steps in context.ts, the table in report.ts, the process plumbing in lib.ts.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import {
  ONLY,
  SECONDS,
  SUBSCRIBERS,
  gateway,
  BUSY_AGENTS,
  guard,
  latency,
  load,
  login,
  newWorkspace,
  notes,
  ladder,
  rows,
  runs,
  secret,
  startBaseline,
  stop,
  stopAll,
  tmp,
  type Workspace,
} from './context.js';
import { HAS_TASKSET, LOAD_CPU, log, progress } from './lib.js';
import type { ProfileSummary } from './profile.js';
import { render, writeDoc } from './report.js';
import { addAgents, addTickets, count, forgeSessions, openDb } from './seed.js';
import { bearerDashboard, costLadder, dashboard, dashboardManyAgents, profileLoad } from './scenarios/dashboard.js';
import { live } from './scenarios/live.js';
import { liveInBrowser } from './scenarios/liveBrowser.js';
import { messageCenter } from './scenarios/messageCenter.js';
import { postgresPassWanted, postgresRows } from './scenarios/postgres.js';
import { replies } from './scenarios/replies.js';
import { reports } from './scenarios/reports.js';
import { restList, restListManyAgents } from './scenarios/restList.js';
import { scale } from './scenarios/scale.js';
import { timeline } from './scenarios/timeline.js';
import { views } from './scenarios/views.js';
import { incomingMail } from './scenarios/incomingMail.js';
import { jobTable } from './scenarios/jobs.js';
import { eventWrites } from './scenarios/eventWrites.js';
import { timelineInBrowser } from './scenarios/timelineBrowser.js';
import { start } from './scenarios/start.js';
import { web } from './scenarios/web.js';
import { webhooks } from './scenarios/webhooks.js';
import { writes } from './scenarios/writes.js';

const benchStarted = performance.now();
const loadAtStart = loadavg()[0];

// The orchestrator and everything it spawns unpinned (autocannon, the subscribers, Chromium) stay on the load core.
if (HAS_TASKSET) spawnSync('taskset', ['-a', '-p', '-c', LOAD_CPU, String(process.pid)], { stdio: 'ignore' });

/** The main workspace: demo seed through the gateway, the rest in bulk straight into SQLite. */
async function seedMainWorkspace(): Promise<Omit<Workspace, 'gw' | 'demo' | 'marnie' | 'baselineUrl'>> {
  const dir = join(tmp, 'main');
  const t0 = performance.now();
  progress('seeding main workspace: migrations and demo seed');
  await newWorkspace(dir);
  const db = openDb(dir);
  const demoImage = db.prepare('select data, mime_type as mimeType, width, height from ticket_images order by id limit 1').get() as {
    data: Buffer;
    mimeType: string;
    width: number;
    height: number;
  };
  const customerIds = (db.prepare('select id from customers').all() as { id: number }[]).map((r) => r.id);
  const macroIds = (db.prepare('select id from macros').all() as { id: number }[]).map((r) => r.id);
  const demoHas = count(db, 'select count(*) as n from tickets where assignee_id = 1');
  addTickets(db, {
    assignees: Array(Math.max(0, 50 - demoHas)).fill(1),
    requesterIds: customerIds,
    macroIds,
    image: demoImage,
    label: 'demo agent to 50 tickets',
  });
  const agents = await addAgents(db, 'bench', Math.max(SUBSCRIBERS, BUSY_AGENTS, 2));
  const agentCookies = forgeSessions(db, agents, secret);
  // Rows 1m and 2m: the read load spread over a team of agents with 50 tickets each, as a help desk uses it.
  const busyAgents = agents.slice(0, BUSY_AGENTS);
  addTickets(db, {
    assignees: busyAgents.flatMap((id) => Array<number>(50).fill(id)),
    requesterIds: customerIds,
    macroIds,
    image: demoImage,
    label: `${BUSY_AGENTS} agents to 50 tickets each`,
  });
  db.close();
  log(
    `seeded main workspace in ${((performance.now() - t0) / 1000).toFixed(1)} s: demo agent with 50 tickets, ${agents.length} more agents with sessions, ${busyAgents.length} of them with 50 tickets each`,
  );
  return { dir, customerIds, agents, agentCookies, busyAgents };
}

async function main() {
  log(
    `fulcrum bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}, taskset ${HAS_TASKSET ? 'yes: server on core 0, load on core 1' : 'not found: unpinned'}`,
  );
  log(`temp data under ${tmp}`);
  const seeded = await seedMainWorkspace();
  const gw = await gateway(seeded.dir);
  const demo = await login(gw.url, 0);
  const marnie = await login(gw.url, 1);

  // ---- baseline --------------------------------------------------------------------------------------------
  const baselineChild = await startBaseline();
  const baselineUrl = `${baselineChild.url}/`;
  const baseline = await load('baseline node:http, 200-byte JSON', { url: baselineUrl });
  const baseline1 = await latency('baseline node:http, 1 connection', { url: baselineUrl });
  rows.push({
    scenario: 'Baseline: bare node:http, 200-byte JSON, 50 connections',
    rps: baseline.rps,
    p50: baseline.p50,
    p99: baseline.p99,
    ratio: 1,
    budget: '—',
    met: null,
  });
  const ws: Workspace = { ...seeded, gw, demo, marnie, baselineUrl };

  if (runs(1)) await guard('1', () => restList(ws));
  if (runs(1)) await guard('1m', () => restListManyAgents(ws));
  if (runs(2)) await guard('2', () => dashboard(ws));
  if (runs(2)) await guard('2m', () => dashboardManyAgents(ws));
  if (runs(2)) await guard('2b', () => bearerDashboard(ws));
  if (runs(2)) await guard('ladder', () => costLadder(ws));
  // 6 before the writes, so the dashboard shows the same 50 tickets.
  if (runs(6)) await guard('6', () => web(ws));
  if (runs(3)) await guard('3', () => writes(ws));
  // The same rows on PostgreSQL + Redis, while the baseline still runs (their ratios pair with it like the SQLite rows').
  const onPostgres = [runs(1) && restList, runs(1) && restListManyAgents, runs(2) && dashboard, runs(2) && dashboardManyAgents, runs(3) && writes].filter(
    (s) => s !== false,
  );
  const postgres = (onPostgres.length > 0 || runs(10) || runs(11) || runs(12) || runs(13) || runs(14) || runs(15)) && (await postgresPassWanted());
  if (onPostgres.length && postgres) await guard('PostgreSQL + Redis', () => postgresRows(ws, onPostgres));
  await stop(baselineChild);
  if (runs(5)) await guard('5', () => live(ws));
  if (runs(5)) await guard('5c', () => liveInBrowser(ws));
  await stop(ws.gw);
  let profile: ProfileSummary | undefined;
  const profileOf = process.env.BENCH_PROFILE === 'rest' ? 'rest' : 'dashboard';
  if (runs(profileOf === 'rest' ? 1 : 2) && process.env.BENCH_PROFILE !== '0')
    await guard('profile', async () => void (profile = await profileLoad(ws, profileOf)));
  if (runs(4)) await guard('4', scale);
  if (runs(8)) await guard('8', messageCenter);
  if (runs(7)) await guard('7', start);
  if (runs(9)) await guard('9', webhooks);
  // the timeline at scale and the write path with the event record, each on SQLite then PostgreSQL + Redis.
  if (runs(10)) await guard('10', () => timeline(postgres));
  if (runs(10)) await guard('10c', () => eventWrites(postgres));
  if (runs(10)) await guard('10e', timelineInBrowser);
  // replies to the requester by mail (a real SMTP server on 127.0.0.1), on SQLite then PostgreSQL + Redis.
  if (runs(11)) await guard('11', () => replies(postgres));
  // reports over the report rollups: latency at scale, write → visible, the write path paired; SQLite then PostgreSQL + Redis.
  if (runs(12)) await guard('12', () => reports(postgres));
  // views at scale (1,000,000 tickets, 20 teams, 200 agents) and their live counts, SQLite then PostgreSQL + Redis.
  if (runs(13)) await guard('13', () => views(postgres));
  // mail through the SMTP listener to tickets, SQLite then PostgreSQL + Redis.
  if (runs(14)) await guard('14', () => incomingMail(postgres));
  // the job table's due work on an idle gateway, SQLite then PostgreSQL (same and another gateway).
  if (runs(15)) await guard('15', () => jobTable(postgres));

  // ---- report ------------------------------------------------------------------------------------------------
  const report = render({ rows, ladder, notes, baseline, baseline1, profile, seconds: SECONDS, only: ONLY, loadAtStart });
  console.log(`\n${report}`);
  writeDoc(report);
  log(`\nbench finished in ${((performance.now() - benchStarted) / 1000 / 60).toFixed(1)} min; table written to docs/performance.md`);
}

try {
  await main();
} catch (error) {
  console.error('\nbench failed:', error);
  process.exitCode = 1;
} finally {
  await stopAll();
  if (!process.env.BENCH_KEEP_DATA) rmSync(tmp, { recursive: true, force: true });
}
