/**
 * Scenario 10c/10d ("Fast"): the write path keeps its speed with the event record. REST
 * `PUT /api/tickets/{id}/edit` and GraphQL `updateTicket` throughput with their events (this code), paired in one
 * run against the same writes without the event record: this same code (HEAD's committed tree) with only the
 * record's own statements cut out of changeLog.ts's appendTicketEvents. Goal: with ≥ 0.9× without.
 *
 * "Without" is not a setting of this code (nothing a user could turn on; the product has no switch): HEAD's tree is
 * exported into a temp folder (`git read-tree` into a temp index and `git checkout-index --prefix`, which touch neither
 * this checkout nor its index), given this checkout's node_modules (each package linked, but @fulcrum/* pointing
 * into the export), its schema/src/services/changeLog.ts patched there (cutEventRecord) and bundled by the export's
 * own gateway/bundle.mjs; this code is bundled by the same script (gateway/testing bundleServer). The patch removes
 * exactly the record's writes: on PostgreSQL the `ticket_events_append` statement (the counter bump
 * `update tickets set event_seq ...` and the insert into ticket_events, one CTE) and its after-delete variant
 * `ticket_events_append_deleted`; on SQLite the `ticket_events_bump` update, the `ticket_events_last` read and the
 * `ticket_events_insert` inserts. Everything else stays: the actor's name, the report facts (paired on
 * their own in row 12c), the returned entries (their seqs from a per-process count, sent on the live bus as usual),
 * the webhook outbox and the audiences. The patch is one exact text replacement: if changeLog.ts no longer holds the
 * text it cuts (RECORD_STATEMENTS, below), the bench fails rather than compare two identical sides; it checks that
 * the patched file names none of those statements and still reports facts, returns the entries and fills the outbox.
 * A ticket gone mid-write is then not NOT_FOUND on the side without (the bump found it); no write here meets one.
 * When this checkout's bundle sources differ from HEAD (uncommitted changes), the row says so: the sides then differ
 * by more than the record.
 *
 * BENCH_WITHOUT_EVENTS_COMMIT=<rev> compares with that commit's tree instead, exported the same way but unpatched
 * (e.g. the parent of the commit adding Migration20261126130000TicketTimeline, the gateway before the record came in:
 * that measures every feature added since too; or a commit with the record, to time another change of the write path
 * against this code, as the webhook fan-out's was). What that side records is not checked.
 *
 * Both bundles sit at the same place under node_modules/.cache and start with plain node as `npm start` runs them,
 * with the same environment, each on a fresh database with the demo seed, both up for the whole comparison on the
 * server core. Runs alternate without, with, without, with... (BENCH_WRITE_PAIRS pairs, default 7; each a 2 s
 * warm-up and a BENCH_PAIR_SECONDS run at BENCH_WRITE_CONNECTIONS connections; the ratio is the median of the pairs'), so the machine's drift falls on both.
 *
 * Every write changes something: Marnie edits 100 of her tickets in turn (request n of a run edits ticket n mod 100),
 * the title and priority alternating between two versions each round. Checked once on both gateways; on the one
 * with the record, the write's UPDATED entry (door, fields) is read back, and at the end the UPDATED events counted
 * must cover every acknowledged write. On the patched side the edited tickets have no entry at all (not even
 * CREATED: ticket creation appends through the same function), after the first writes and after all runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { bundleServer, type StartedProcess } from '../../gateway/src/testing/processes.js';
import { PAIRS, PAIR_SECONDS, WRITE_CONNECTIONS, bundledGateway, pairedNote, pairedRatio, check, failures, gql, login, rows, stop, tmp } from '../context.js';
import { autocannon, log, progress, ROOT, type LoadResult, type LoadSpec } from '../lib.js';
import { fmtInt } from '../report.js';

const TICKETS = 100;
const MARNIE_ID = 2;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WITHOUT_COMMIT = process.env.BENCH_WITHOUT_EVENTS_COMMIT;
const UPDATE = 'mutation($id: Int!, $input: TicketInput!) { updateTicket(id: $id, input: $input) { id title priority updatedAt } }';
/** What gateway/bundle.mjs compiles (its SOURCES): a difference from HEAD here is a difference between the sides. */
const BUNDLE_SOURCES = ['gateway/src', 'schema/src', 'gateway/package.json', 'schema/package.json', 'package-lock.json', 'tsconfig.json', 'gateway/bundle.mjs'];

const CHANGE_LOG = 'schema/src/services/changeLog.ts';
/**
 * The event record's own statements in appendTicketEvents, exactly as changeLog.ts has them (from the loop body's
 * first line to the report facts). Edit this with changeLog.ts: only the record's statements may go.
 */
const RECORD_STATEMENTS = `    const deletion = list.every((d) => d.kind === 'DELETED');
    let first: number;
    if (statements.postgres) {
      const entries = JSON.stringify(
        list.map((d, i) => ({
          i: i + 1,
          at: d.at ?? at,
          kind: d.kind,
          changes: JSON.stringify(d.changes),
          note_id: d.noteId ?? null,
          reply_id: d.replyId ?? null,
          requester_message_id: d.requesterMessageId ?? null,
          assignee_id: d.assigneeId,
          team_id: d.teamId ?? null,
        })),
      );
      const who = [actor.kind, actor.userId, name, ctx.via];
      let rows = await statements.all<{ seq: number }>('ticket_events_append', POSTGRES_APPEND, [
        list.length,
        ticketId,
        ticketId,
        list.length,
        ...who,
        entries,
      ]);
      if (!rows.length && deletion)
        rows = await statements.all<{ seq: number }>('ticket_events_append_deleted', POSTGRES_APPEND_AFTER_DELETE, [ticketId, ticketId, ...who, entries]);
      if (!rows.length) throw AppError.notFound('Ticket');
      first = Math.min(...rows.map((r) => Number(r.seq)));
    } else {
      const [bumped] = await statements.all<{ event_seq: number }>(
        'ticket_events_bump',
        'update tickets set event_seq = event_seq + ? where id = ? returning event_seq',
        [list.length, ticketId],
      );
      let last: number;
      if (bumped) last = Number(bumped.event_seq);
      else if (deletion) {
        const [row] = await statements.all<{ n: number | null }>('ticket_events_last', 'select max(seq) as n from ticket_events where ticket_id = ?', [
          ticketId,
        ]);
        last = Number(row?.n ?? 0) + list.length;
      } else throw AppError.notFound('Ticket');
      first = last - list.length + 1;
      for (const [i, d] of list.entries())
        await statements.all('ticket_events_insert', \`insert into ticket_events (\${EVENT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)\`, [
          ticketId,
          first + i,
          (d.at ?? at).getTime(),
          actor.kind,
          actor.userId,
          name,
          ctx.via,
          d.kind,
          JSON.stringify(d.changes),
          d.noteId ?? null,
          d.replyId ?? null,
          d.requesterMessageId ?? null,
          d.assigneeId,
          d.teamId ?? null,
        ]);
    }
`;
/** What takes their place: each entry still gets a seq (the ticket's counter is not bumped, so one per process). */
const NO_RECORD = `    // Cut out by the bench (bench/scenarios/eventWrites.ts, the side without the event record): the record's counter
    // bump and rows. Each entry's seq comes from a per-process count.
    const first = benchWithoutRecordSeq + 1;
    benchWithoutRecordSeq += list.length;
`;
const APPEND_HEAD = 'export async function appendTicketEvents(';

function git(args: string[], env: Record<string, string> = {}): string {
  const out = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  if (out.status !== 0) throw new Error(`git ${args.join(' ')}: ${out.stderr.trim()}`);
  return out.stdout.trim();
}

/** `find` replaced by `by` in `text`, which must hold it exactly once. */
function replaceOnce(text: string, find: string, by: string, what: string): string {
  const at = text.indexOf(find);
  if (at < 0 || text.includes(find, at + 1))
    throw new Error(
      `10: the exported ${CHANGE_LOG} holds ${what} ${at < 0 ? 'nowhere' : 'more than once'}: bring RECORD_STATEMENTS in bench/scenarios/eventWrites.ts up to date with it (cutting only the event record's own statements)`,
    );
  return text.slice(0, at) + by + text.slice(at + find.length);
}

/** The exported copy's appendTicketEvents without the event record's statements (nothing else), checked. */
function cutEventRecord(src: string): void {
  const file = join(src, CHANGE_LOG);
  let text = readFileSync(file, 'utf8');
  text = replaceOnce(text, RECORD_STATEMENTS, NO_RECORD, "appendTicketEvents' event record statements (RECORD_STATEMENTS)");
  text = replaceOnce(text, APPEND_HEAD, `let benchWithoutRecordSeq = 0;\n\n${APPEND_HEAD}`, `'${APPEND_HEAD}'`);
  const left = text.match(/'ticket_events_\w+'/g);
  if (left) throw new Error(`10: the patched ${CHANGE_LOG} still runs ${[...new Set(left)].join(', ')}`);
  for (const kept of [
    'await actorName(em, actor.userId)',
    'await queueReportEvents(',
    'appended.push(',
    'await insertEvents(em, webhooks)',
    'await ticketAudiences(em,',
  ])
    if (!text.includes(kept)) throw new Error(`10: the patched ${CHANGE_LOG} lost \`${kept}\``);
  writeFileSync(file, text);
}

interface Bundles {
  without: string;
  with: string;
  /** The exported commit (HEAD, or BENCH_WITHOUT_EVENTS_COMMIT). */
  commit: string;
  /** HEAD with the record's statements cut out; false: BENCH_WITHOUT_EVENTS_COMMIT's tree as it is. */
  patched: boolean;
  /** Why the two sides may differ by more than the record (for the row's note). */
  caveat: string;
  cleanup(): void;
}

/** HEAD's tree with the record's statements cut out (or BENCH_WITHOUT_EVENTS_COMMIT's), bundled by its own gateway/bundle.mjs; and this code's bundle. */
async function buildBundles(): Promise<Bundles> {
  const patched = !WITHOUT_COMMIT;
  const commit = git(['rev-parse', '--short', WITHOUT_COMMIT ?? 'HEAD']);
  progress(
    `10. write path: exporting ${commit} (${patched ? 'HEAD, the event record cut out of its change log' : 'BENCH_WITHOUT_EVENTS_COMMIT, unpatched'}) and bundling it`,
  );
  const src = join(tmp, `without-events-${commit}`);
  rmSync(src, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  const index = { GIT_INDEX_FILE: join(tmp, 'without-events.index') };
  git(['read-tree', commit], index);
  git(['checkout-index', '--all', '--force', `--prefix=${src}/`], index);
  if (patched) cutEventRecord(src);
  // This checkout's packages, one link each, except our workspaces, which must be the export's own.
  const modules = join(src, 'node_modules');
  mkdirSync(join(modules, '@fulcrum'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules')))
    if (name !== '@fulcrum' && name !== '.cache') symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  for (const name of readdirSync(join(ROOT, 'node_modules/@fulcrum')))
    if (existsSync(join(src, name === 'example-integration' ? 'examples/integration' : name)))
      symlinkSync(join(src, name === 'example-integration' ? 'examples/integration' : name), join(modules, '@fulcrum', name));
  for (const workspace of ['schema', 'gateway'])
    if (existsSync(join(ROOT, workspace, 'node_modules')) && !existsSync(join(src, workspace, 'node_modules')))
      symlinkSync(join(ROOT, workspace, 'node_modules'), join(src, workspace, 'node_modules'));
  const without = join(ROOT, 'node_modules/.cache', `fulcrum-bench-without-events-${process.pid}`, 'main.mjs');
  const built = spawnSync(process.execPath, [join(src, 'gateway/bundle.mjs'), without], { cwd: src, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`bundling ${commit}${patched ? ' without the event record' : ''}: ${built.stderr.slice(-1000)}`);
  const withEvents = await bundleServer(`fulcrum-bench-with-events-${process.pid}`);
  let caveat = '';
  if (patched) {
    const changed = git(['status', '--porcelain', '--', ...BUNDLE_SOURCES]);
    if (changed)
      caveat = `this checkout's bundle sources differ from ${commit} (${changed.split('\n').length} uncommitted files): the sides differ by more than the record`;
  } else if (spawnSync('git', ['diff', '--quiet', commit, '--', 'package-lock.json'], { cwd: ROOT }).status !== 0)
    caveat = `package-lock.json differs from ${commit}`;
  return {
    without,
    with: withEvents,
    commit,
    patched,
    caveat,
    cleanup: () => {
      for (const bundle of [without, withEvents]) rmSync(dirname(bundle), { recursive: true, force: true });
      rmSync(src, { recursive: true, force: true });
    },
  };
}

interface Side {
  name: 'without' | 'with';
  gw: StartedProcess;
  marnie: string;
  ids: number[];
  rest: LoadSpec;
  graphql: LoadSpec;
  /** Writes answered 2xx without errors (checks, warm-ups and timed runs). */
  acknowledged: number;
}

/** Marnie's ticket ids to edit (created through REST), and the two load specs cycling through them. */
async function prepare(name: Side['name'], gw: StartedProcess): Promise<Side> {
  const marnie = await login(gw.url, 1);
  const headers = { 'content-type': 'application/json', cookie: marnie };
  const customers = (await (await fetch(`${gw.url}/api/customers/`, { headers })).json()) as { id: number }[];
  const requester = customers[0].id;
  const ids: number[] = [];
  for (let i = 0; i < TICKETS; i++) {
    const res = await fetch(`${gw.url}/api/tickets/create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: `Edit target ${i}`,
        type: 'Question',
        priority: 'Medium',
        assignee: MARNIE_ID,
        requester,
        apply_macro: 1,
        description: 'Edited by the benchmark.',
      }),
    });
    if (!res.ok) throw new Error(`creating tickets to edit: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: number }).id);
  }
  // Request n edits ticket n mod 100; each round flips title and priority, so every write changes two fields.
  const turns = <T>(make: (id: number, second: boolean) => T) =>
    Array.from({ length: 2 * TICKETS }, (_, n) => make(ids[n % TICKETS], Math.floor(n / TICKETS) % 2 === 1));
  const restRequests = turns((id, second) => ({
    path: `/api/tickets/${id}/edit`,
    body: JSON.stringify({
      title: second ? 'Edited by REST, second' : 'Edited by REST, first',
      type: 'Incident',
      priority: second ? 'High' : 'Low',
      assignee: MARNIE_ID,
      requester,
      apply_macro: 1,
      description: 'Edited by the benchmark.',
    }),
  }));
  const graphqlRequests = turns((id, second) => ({
    path: '/graphql',
    body: JSON.stringify({
      query: UPDATE,
      variables: {
        id,
        input: {
          title: second ? 'Edited by GraphQL, second' : 'Edited by GraphQL, first',
          type: 'Problem',
          priority: second ? 'Urgent' : 'Medium',
          requesterId: requester,
          macroId: 1,
          description: 'Edited by the benchmark.',
        },
      },
    }),
  }));
  return {
    name,
    gw,
    marnie,
    ids,
    acknowledged: 0,
    rest: { url: `${gw.url}${restRequests[0].path}`, method: 'PUT', headers, requests: restRequests, connections: WRITE_CONNECTIONS },
    graphql: { url: `${gw.url}/graphql`, method: 'POST', headers, requests: graphqlRequests, connections: WRITE_CONNECTIONS },
  };
}

const TIMELINE_HEAD = 'query($id: Int!) { ticket(id: $id) { timeline(first: 1) { nodes { ... on TicketChange { kind via changes { field from to } } } } } }';

/**
 * One write of each kind checked on both sides; on the one with the record, each write's UPDATED entry is read back;
 * on the patched one without, the ticket has no entry (BENCH_WITHOUT_EVENTS_COMMIT's is not checked).
 */
async function checkSide(side: Side, bundles: Bundles): Promise<void> {
  for (const [spec, via, title] of [
    [side.rest, 'REST', 'Edited by REST, first'],
    [side.graphql, 'WEB', 'Edited by GraphQL, first'],
  ] as const) {
    const first = spec.requests![0];
    const id = side.ids[0];
    await check({ ...spec, url: `${side.gw.url}${first.path}`, body: first.body }, (b) => {
      const ticket = b.data?.updateTicket ?? b;
      if (ticket.id !== id || ticket.title !== title) throw new Error(`10: the ${via} edit answered ${JSON.stringify(b).slice(0, 200)}`);
    });
    side.acknowledged++;
    if (side.name === 'with') {
      const entry = (await gql(side.gw.url, side.marnie, TIMELINE_HEAD, { id })).ticket.timeline.nodes[0];
      if (entry?.kind !== 'UPDATED' || entry.via !== via || !entry.changes.some((c: { field: string; to: string }) => c.field === 'title' && c.to === title))
        throw new Error(`10: the ${via} edit's event is not the newest entry: ${JSON.stringify(entry)}`);
    }
  }
  if (side.name === 'with') return;
  if (bundles.patched) {
    const entries = await changeEntries(side, side.ids.slice(0, 1));
    if (entries !== 0) throw new Error(`10: the gateway without the event record recorded ${entries} change entries for two edits of ticket ${side.ids[0]}`);
    return;
  }
  // BENCH_WITHOUT_EVENTS_COMMIT: any commit (before the record, or one with it, to time another change of the write
  // path against this code); what it records is said in the row, not checked.
}

/** The change entries (CREATED, UPDATED, DELETED) of the tickets `ids` (default: every edited one), read through GraphQL. */
async function changeEntries(side: Side, ids = side.ids): Promise<number> {
  let total = 0;
  for (let from = 0; from < ids.length; from += 20) {
    const fields = ids
      .slice(from, from + 20)
      .map((id) => `t${id}: ticket(id: ${id}) { timeline(first: 1, filter: CHANGES) { totalCount } }`)
      .join(' ');
    const data = (await gql(side.gw.url, side.marnie, `{ ${fields} }`)) as Record<string, { timeline: { totalCount: number } }>;
    for (const t of Object.values(data)) total += t.timeline.totalCount;
  }
  return total;
}

const ok = (r: LoadResult) => r.requests - r.non2xx - (r.mismatches ?? 0);

async function run(side: Side, label: string, spec: LoadSpec): Promise<LoadResult> {
  progress(`  ${label}, ${side.name} the event record: warm-up`);
  side.acknowledged += ok(await autocannon({ ...spec, seconds: 2 }));
  progress(`  ${label}, ${side.name} the event record: ${PAIR_SECONDS} s at ${WRITE_CONNECTIONS} connections`);
  const r = await autocannon({ ...spec, seconds: PAIR_SECONDS });
  side.acknowledged += ok(r);
  const failed = failures(r);
  log(`  ${label}, ${side.name} the event record: ${fmtInt(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${failed ? `; ${failed}` : ''}`);
  return r;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Both gateways on their own fresh database (`dirs`, or the DATABASE_URL of `envs`), compared. */
async function compare(
  bundles: Bundles,
  label: string,
  dirs: [string, string],
  envs: [Record<string, string>, Record<string, string>] = [{}, {}],
): Promise<void> {
  progress(`10. write path${label}: starting both gateways`);
  const without = await prepare('without', await bundledGateway(bundles.without, dirs[0], envs[0]));
  const withEvents = await prepare('with', await bundledGateway(bundles.with, dirs[1], envs[1]));
  try {
    await checkSide(without, bundles);
    await checkSide(withEvents, bundles);
    const kinds = [
      ['10c', 'REST `PUT /api/tickets/{id}/edit`', 'rest'],
      ['10d', 'GraphQL `updateTicket`', 'graphql'],
    ] as const;
    const results = new Map<string, { without: LoadResult[]; with: LoadResult[] }>();
    for (const [n, , key] of kinds) {
      const runs = { without: [] as LoadResult[], with: [] as LoadResult[] };
      for (let p = 0; p < PAIRS; p++) {
        runs.without.push(await run(without, `${n}. ${key} edit${label} (${p + 1}/${PAIRS})`, without[key]));
        runs.with.push(await run(withEvents, `${n}. ${key} edit${label} (${p + 1}/${PAIRS})`, withEvents[key]));
      }
      results.set(n, runs);
    }
    // Every change entry of the edited tickets but each one's CREATED.
    const events = (await changeEntries(withEvents)) - withEvents.ids.length;
    const covered = events >= withEvents.acknowledged;
    // The patched side's edited tickets must still have no entry at all.
    const leaked = bundles.patched ? await changeEntries(without) : 0;
    const withoutIs = bundles.patched
      ? `this code, ${bundles.commit}, its change log's record statements cut out`
      : `bundle of ${bundles.commit}, BENCH_WITHOUT_EVENTS_COMMIT`;
    for (const [n, what] of kinds) {
      const runs = results.get(n)!;
      const rps = { without: mean(runs.without.map((r) => r.rps)), with: mean(runs.with.map((r) => r.rps)) };
      const paired = pairedRatio(runs.with, runs.without);
      const ratio = paired.ratio;
      const failed = [...runs.without, ...runs.with].map(failures).filter(Boolean);
      const list = (rs: LoadResult[]) => rs.map((r) => fmtInt(r.rps)).join(', ');
      rows.push(
        {
          scenario: `${n}. Write path: ${what}, without the event record (${withoutIs}), ${WRITE_CONNECTIONS} connections${label}`,
          rps: rps.without,
          p50: mean(runs.without.map((r) => r.p50)),
          p99: Math.max(...runs.without.map((r) => r.p99)),
          budget: '—',
          met: null,
          note: [
            `runs ${list(runs.without)} req/s, alternated with the row below`,
            bundles.patched
              ? `${fmtInt(leaked)} change entries on its ${fmtInt(without.ids.length)} edited tickets${leaked ? ': THE RECORD WAS WRITTEN' : ''}`
              : '',
          ]
            .filter(Boolean)
            .join('; '),
        },
        {
          scenario: `${n}. Write path: ${what} with its events (this code's bundle), ${WRITE_CONNECTIONS} connections${label}`,
          rps: rps.with,
          p50: mean(runs.with.map((r) => r.p50)),
          p99: Math.max(...runs.with.map((r) => r.p99)),
          ratio,
          budget: 'ratio to the row above ≥ 0.9',
          met: ratio >= 0.9 && !failed.length && covered && !leaked,
          note: [
            `ratio column: to the same writes without the event record, the ${pairedNote(paired)}; with: ${list(runs.with)} req/s`,
            `${fmtInt(events)} UPDATED events for ${fmtInt(withEvents.acknowledged)} acknowledged edits of both kinds${covered ? '' : ': SOME EDITS HAVE NO EVENT'}`,
            leaked ? `the side without recorded ${fmtInt(leaked)} change entries: NOT WITHOUT THE RECORD` : '',
            bundles.caveat,
            ...failed,
          ]
            .filter(Boolean)
            .join('; '),
        },
      );
    }
  } finally {
    await stop(without.gw);
    await stop(withEvents.gw);
  }
}

/** Scenario 10c/10d on SQLite and, when `postgres`, on PostgreSQL + Redis (two fresh databases). */
export async function eventWrites(postgres: boolean): Promise<void> {
  const bundles = await buildBundles();
  try {
    const dirs: [string, string] = [join(tmp, 'writes-without-events'), join(tmp, 'writes-with-events')];
    await compare(bundles, '', dirs);
    if (!postgres) return;
    const databases = [await createPostgresDatabase(), await createPostgresDatabase()];
    try {
      await compare(
        bundles,
        ' (PostgreSQL + Redis)',
        [`${dirs[0]}-pg`, `${dirs[1]}-pg`],
        [
          { DATABASE_URL: databases[0].url, REDIS_URL },
          { DATABASE_URL: databases[1].url, REDIS_URL },
        ],
      );
    } finally {
      for (const d of databases) await d.drop().catch(() => undefined);
    }
  } finally {
    bundles.cleanup();
  }
}
