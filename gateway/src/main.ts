/** `npm start`: one gateway from the environment (README lists the variables). */
import { optionsFromEnv } from './config.js';
import { startGateway } from './app.js';
import { redactSecrets } from './rest/errors.js';

const options = optionsFromEnv();
const startedAt = performance.now();
const gateway = await startGateway(options);
const database = options.databaseUrl ? 'PostgreSQL' : `SQLite in ${options.dataDir}`;
console.log(`fulcrum listening on ${gateway.url} (${database}${options.redisUrl ? ', Redis pub/sub' : ''}) in ${Math.round(performance.now() - startedAt)} ms`);

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
