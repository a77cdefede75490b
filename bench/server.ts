/**
 * The gateway under test: the same startGateway() that `npm start` runs (gateway/src/main.ts), from the same kind
 * of environment, plus two things only the bench needs, over the IPC channel of its parent (bench/run.ts):
 * a counter of the SQL statements the gateway's knex client runs (every statement of the ORM, the session store
 * and the hand-written reads goes through it), and its memory.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startGateway } from '../gateway/src/app.js';

const gateway = await startGateway({
  port: Number(process.env.PORT ?? 0),
  host: '127.0.0.1',
  dataDir: process.env.DATA_DIR,
  // The PostgreSQL + Redis pass (bench/scenarios/postgres.ts): the scale-out configuration, as `npm start` reads it.
  databaseUrl: process.env.DATABASE_URL || undefined,
  redisUrl: process.env.REDIS_URL || undefined,
  demo: process.env.FULCRUM_DEMO !== '0',
  sessionSecret: process.env.SESSION_SECRET,
  introspection: false,
  logErrors: true,
  // The bench measures throughput, not the budget: every bearer request still spends from its token's budget
  // (the limiter runs), the budget just never runs out.
  tokenBudget: 1_000_000_000,
  webhooks: { allowHosts: process.env.FULCRUM_WEBHOOK_ALLOW_HOSTS || undefined },
  // Mail to requesters (scenario 11: bench/scenarios/replies.ts points SMTP_URL at its SMTP server on 127.0.0.1).
  mail: { smtpUrl: process.env.SMTP_URL || undefined, from: process.env.FULCRUM_MAIL_FROM || undefined },
  // Incoming mail (scenario 14: bench/scenarios/incomingMail.ts), as `npm start` reads it; BENCH_FIXED_DNS answers
  // every DNS look-up "not found" at once (this machine has no DNS: the system resolver would wait its 2 s each).
  incomingMail: {
    listen: process.env.FULCRUM_SMTP_LISTEN || undefined,
    defaultAgent: process.env.FULCRUM_MAIL_DEFAULT_AGENT || undefined,
    resolver:
      process.env.BENCH_FIXED_DNS === '1'
        ? async () => {
            throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
          }
        : undefined,
  },
});

let statements: string[] = [];
const knex = (gateway.orm.em.getConnection() as unknown as { getKnex(): unknown }).getKnex() as { on(event: 'query', fn: (q: { sql: string }) => void): void };
knex.on('query', (q) => statements.push(q.sql));

// The same V8 CPU profiler as `node --cpu-prof`, started and stopped around the load only (not the start-up).
let profiler: Session | undefined;
async function profile(message: { type: string; file?: string }) {
  if (message.type === 'profile-start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.post('Profiler.start');
  } else if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(message.file!, JSON.stringify(profile));
    profiler.disconnect();
  }
  process.send?.({ type: message.type });
}

process.on('message', (message: { type: string; file?: string }) => {
  if (message.type === 'profile-start' || message.type === 'profile-stop') void profile(message);
  if (message.type === 'reset') {
    statements = [];
    process.send?.({ type: 'reset' });
  }
  if (message.type === 'statements') process.send?.({ type: 'statements', statements });
  if (message.type === 'memory') process.send?.({ type: 'memory', memory: process.memoryUsage() });
});

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // process.exit() (not a natural end) so that --cpu-prof writes its profile.
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
console.log(`READY ${gateway.url}`);
