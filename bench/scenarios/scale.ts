/**
 * Scenario 4: the dashboard's first page, and a page deep in by its cursor, as the table grows to 1,000 /
 * 100,000 / 1,000,000 tickets (BENCH_SCALE), seeded in bulk straight into SQLite between gateway runs; then, at the
 * last point, triage again with 5 conversation entries per ticket (4c, conversationScale.ts).
 */
import { join } from 'node:path';
import { tickets } from '@fulcrum/schema';
import { SCALE, SECONDS, check, dashboardSpec, gateway, latency, newWorkspace, notes, rows, startBaseline, stop, tmp } from '../context.js';
import { log, progress, type LoadResult } from '../lib.js';
import { fmt, fmtInt } from '../report.js';
import { addAgents, addCustomers, addTickets, count, openDb, rng, shuffle } from '../seed.js';
import { conversationPoint } from './conversationScale.js';
import { SEARCH_TERMS, matchCount, measureTriage, seededTicket, triageRows, type TriagePoint } from './triage.js';

interface ScalePoint {
  total: number;
  demo: LoadResult;
  bobbie: LoadResult;
  deep?: LoadResult;
  demoCount: number;
  bobbieCount: number;
  seedSeconds: number;
  base: LoadResult;
}

export async function scale(): Promise<void> {
  const dir = join(tmp, 'scale');
  progress('4. scale: migrations and demo seed');
  const [demo, bobbie] = await newWorkspace(dir, 0, 2);
  let db = openDb(dir);
  // The demo seed makes Demo the admin, whose list holds every ticket; this scenario measures an agent's
  // own list at scale (1 % and 10 % of the tickets), as it did before roles, so Demo is a plain agent here.
  db.prepare("update users set role = 'AGENT' where id = 1").run();
  const others = await addAgents(db, 'scale', 98);
  const everyone = [1, 2, 3, ...others];
  const customers = addCustomers(db, everyone, 2000);
  const macros = (db.prepare('select id from macros').all() as { id: number }[]).map((r) => r.id);
  db.close();
  const random = rng(42);
  const textRandom = rng(4242);
  const triage: TriagePoint[] = [];
  // Two agents are measured: the demo agent owns 1% of all tickets (at least a full page), Bobbie 10%.
  const shares = (total: number) => ({ demo: Math.max(50, total / 100), bobbie: total / 10 });
  const results: ScalePoint[] = [];
  for (const total of SCALE) {
    db = openDb(dir);
    const have = count(db, 'select count(*) as n from tickets');
    const target = shares(total);
    const demoNeed = Math.max(0, target.demo - count(db, 'select count(*) as n from tickets where assignee_id = 1'));
    const bobbieNeed = Math.max(0, target.bobbie - count(db, 'select count(*) as n from tickets where assignee_id = 3'));
    const restNeed = Math.max(0, total - have - demoNeed - bobbieNeed);
    const assignees = new Int32Array(demoNeed + bobbieNeed + restNeed);
    let k = 0;
    for (let i = 0; i < demoNeed; i++) assignees[k++] = 1;
    for (let i = 0; i < bobbieNeed; i++) assignees[k++] = 3;
    const restAgents = [2, ...others];
    for (let i = 0; i < restNeed; i++) assignees[k++] = restAgents[i % restAgents.length];
    shuffle(assignees, random); // agents' tickets interleave through the table, as they would in real use
    const t0 = performance.now();
    addTickets(db, {
      assignees,
      requesterIds: customers,
      macroIds: macros,
      label: `${total.toLocaleString('en-US')} tickets`,
      fields: (i) => seededTicket(i, textRandom),
    });
    db.exec('analyze');
    const seedSeconds = (performance.now() - t0) / 1000;
    const demoCount = count(db, 'select count(*) as n from tickets where assignee_id = 1');
    const bobbieCount = count(db, 'select count(*) as n from tickets where assignee_id = 3');
    const all = count(db, 'select count(*) as n from tickets');
    const matched = { one: matchCount(db, 3, SEARCH_TERMS.one), two: matchCount(db, 3, SEARCH_TERMS.two), frequent: matchCount(db, 3, SEARCH_TERMS.frequent) };
    db.close();
    log(
      `  4. ${all.toLocaleString('en-US')} tickets seeded (+${assignees.length.toLocaleString('en-US')} in ${seedSeconds.toFixed(1)} s): demo agent ${demoCount.toLocaleString('en-US')}, Bobbie ${bobbieCount.toLocaleString('en-US')}`,
    );
    const baselineChild = await startBaseline();
    const base = await latency('  baseline just before, 1 connection', { url: `${baselineChild.url}/` });
    await stop(baselineChild);
    const gw = await gateway(dir, { demo: false });
    const seconds = Math.min(SECONDS, 5);
    const demoSpec = { ...dashboardSpec(gw.url, demo), seconds };
    const bobbieSpec = { ...dashboardSpec(gw.url, bobbie), seconds };
    for (const [spec, n] of [
      [demoSpec, demoCount],
      [bobbieSpec, bobbieCount],
    ] as const) {
      await check(spec, (b) => {
        if (b.data.tickets.totalCount !== n || b.data.tickets.nodes.length !== 50) throw new Error(`scale: expected a full page of ${n}`);
      });
    }
    const demoR = await latency(`4. ${all.toLocaleString('en-US')} tickets, first page, agent with ${demoCount.toLocaleString('en-US')}`, demoSpec);
    const bobbieR = await latency(`4. ${all.toLocaleString('en-US')} tickets, first page, agent with ${bobbieCount.toLocaleString('en-US')}`, bobbieSpec);
    let deep: LoadResult | undefined;
    if (total === SCALE[SCALE.length - 1]) {
      // A page in the middle of Bobbie's tickets, reached by its cursor (keyset: no OFFSET scan).
      db = openDb(dir);
      const mid = (
        db.prepare('select id from tickets where assignee_id = 3 order by id desc limit 1 offset ?').get(Math.floor(bobbieCount / 2)) as { id: number }
      ).id;
      db.close();
      const after = tickets.encodeCursor(mid);
      deep = await latency(`4. deep page (cursor in the middle of ${bobbieCount.toLocaleString('en-US')})`, {
        ...dashboardSpec(gw.url, bobbie, 50, after),
        seconds,
      });
    }
    // Triage: the filtered and searched dashboard for Bobbie (10% of the tickets).
    triage.push(
      await measureTriage({ url: gw.url, cookie: bobbie, seconds, total: all, agentTickets: bobbieCount, baseRps: base.rps, matched }, latency, check),
    );
    await stop(gw);
    results.push({ total: all, demo: demoR, bobbie: bobbieR, deep, demoCount, bobbieCount, seedSeconds, base });
  }
  const first = results[0];
  const last = results[results.length - 1];
  // Conversations: the last point again once every ticket has a conversation (rows 4c).
  await conversationPoint(dir, bobbie, last.bobbieCount);
  // One row per scale point for each measured agent; the last point's row carries the budget.
  for (const agent of ['demo', 'bobbie'] as const) {
    const owned = (r: ScalePoint) => (agent === 'demo' ? r.demoCount : r.bobbieCount);
    for (const r of results) {
      rows.push({
        scenario: `4. Scale: ${r.total.toLocaleString('en-US')} tickets, dashboard first page, agent with ${owned(r).toLocaleString('en-US')} (1 connection)`,
        rps: r[agent].rps,
        p50: r[agent].p50,
        p99: r[agent].p99,
        ratio: r[agent].rps / r.base.rps,
        budget: r === last ? 'p50 ≤ 1.5× the 1,000-ticket p50' : '—',
        met: r === last ? last[agent].p50 <= 1.5 * first[agent].p50 : null,
        note: r === last ? `p50 ${fmt(last[agent].p50, 2)} / ${fmt(first[agent].p50, 2)} ms = ${(last[agent].p50 / first[agent].p50).toFixed(2)}×` : undefined,
      });
    }
  }
  if (last.deep) {
    rows.push({
      scenario: `4. Scale: ${last.total.toLocaleString('en-US')} tickets, a page in the middle of ${last.bobbieCount.toLocaleString('en-US')} (cursor, 1 connection)`,
      rps: last.deep.rps,
      p50: last.deep.p50,
      p99: last.deep.p99,
      ratio: last.deep.rps / last.base.rps,
      budget: '—',
      met: null,
    });
  }
  rows.push(...triageRows(triage));
  notes.push(
    `Scale seeding: ${results.map((r) => `${r.total.toLocaleString('en-US')} tickets in ${r.seedSeconds.toFixed(1)} s`).join(', ')} (each with an image row, bulk inserts in 20,000-row transactions). Scale rows' ratios are to a sequential 1-connection baseline measured just before each scale point (${results.map((r) => `${fmtInt(r.base.rps)} req/s`).join(', ')}).`,
  );
}
