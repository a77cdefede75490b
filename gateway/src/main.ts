/** `npm start`: one gateway from the environment (README lists the variables). */
import { configurationProblems, optionsFromEnv } from './config.js';
import { startGateway, type Gateway } from './app.js';
import { redactSecrets } from './logging.js';

const options = optionsFromEnv();
const problems = configurationProblems(options);
if (problems.length) {
  for (const problem of problems) console.error(`fulcrum: ${problem}`);
  process.exit(1);
}
const startedAt = performance.now();
let gateway: Gateway;
try {
  gateway = await startGateway(options);
} catch (error) {
  // Say what failed and what to check, without a stack trace (FULCRUM_DEBUG=1 shows it).
  const where = options.databaseUrl ? 'the PostgreSQL database at DATABASE_URL' : `the SQLite file in ${String(options.dataDir)}`;
  console.error(`fulcrum: could not start: ${String(redactSecrets(error instanceof Error ? error.message : String(error)))}`);
  console.error(
    `fulcrum: check that ${where}${options.redisUrl ? ' and Redis at REDIS_URL' : ''} can be reached, and that port ${options.port} on ${options.host} is free.`,
  );
  if (process.env.FULCRUM_DEBUG === '1') console.error(error);
  process.exit(1);
}
const database = options.databaseUrl ? 'PostgreSQL' : `SQLite in ${options.dataDir}`;
console.log(`fulcrum listening on ${gateway.url} (${database}${options.redisUrl ? ', Redis pub/sub' : ''}) in ${Math.round(performance.now() - startedAt)} ms`);
if (gateway.smtp)
  console.log(`fulcrum: SMTP listener on ${gateway.smtp.host.includes(':') ? `[${gateway.smtp.host}]` : gateway.smtp.host}:${gateway.smtp.port}`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`fulcrum: ${signal}, draining...`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    gateway.close().then(
      () => process.exit(0),
      (error) => {
        console.error('fulcrum: shutdown failed', error);
        process.exit(1);
      },
    );
  });
}
// A fault in one request must never take the process down: log it and keep serving.
process.on('unhandledRejection', (reason) => console.error('[fulcrum] unhandled rejection:', redactSecrets(reason)));
process.on('uncaughtException', (error) => console.error('[fulcrum] uncaught exception:', redactSecrets(error)));
