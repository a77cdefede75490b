// Where the scale-out tests find PostgreSQL and Redis (read by scripts/withTestServices.sh). For each service,
// one line on stdout: `<name> <how> <url>`, where <how> is
//   explicit   FULCRUM_TEST_PG_URL / FULCRUM_TEST_REDIS_URL is set and answers;
//   default    the variable is unset and something answers on the default address (127.0.0.1:5432 / :6379);
//   absent     the variable is unset and nothing answers there: the caller starts a private server.
// A variable that is set but does not answer is an error, said plainly (exit 1): explicit configuration is never
// second-guessed, and CI must never skip the scale-out tests silently.
// FULCRUM_TEST_DEFAULT_PG_PORT / FULCRUM_TEST_DEFAULT_REDIS_PORT move the default addresses (scripts/provision.test.ts
// points them at closed ports to exercise the provisioning path on a machine where the real defaults answer).
import net from 'node:net';

const services = [
  {
    name: 'postgres',
    label: 'PostgreSQL',
    variable: 'FULCRUM_TEST_PG_URL',
    fallback: `postgres://postgres@127.0.0.1:${process.env.FULCRUM_TEST_DEFAULT_PG_PORT || 5432}/test`,
    defaultPort: 5432,
  },
  {
    name: 'redis',
    label: 'Redis',
    variable: 'FULCRUM_TEST_REDIS_URL',
    fallback: `redis://127.0.0.1:${process.env.FULCRUM_TEST_DEFAULT_REDIS_PORT || 6379}`,
    defaultPort: 6379,
  },
];

const reachable = (host, port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3000 });
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });

let ok = true;
for (const { name, label, variable, fallback, defaultPort } of services) {
  const explicit = process.env[variable];
  const url = explicit || fallback;
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const address = `${host}:${parsed.port || defaultPort}`;
  if (parsed.password) parsed.password = '***'; // shown in messages: never a password
  if (await reachable(host, Number(parsed.port || defaultPort))) {
    console.error(`${label} reachable at ${address}${explicit ? ` (${variable})` : ''}`);
    console.log(`${name} ${explicit ? 'explicit' : 'default'} ${url}`);
  } else if (explicit) {
    ok = false;
    console.error(
      `${label} is NOT reachable at ${address} (${variable}=${parsed}). Start it or unset ${variable} (then the tests start a private ${label}), and run the tests again.`,
    );
  } else {
    console.log(`${name} absent ${url}`);
  }
}
process.exit(ok ? 0 : 1);
