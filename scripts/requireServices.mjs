// The scale-out tests need real PostgreSQL and Redis. Say so plainly and fail if either is unreachable:
// CI must never skip them silently.
import net from 'node:net';

const services = [
  ['PostgreSQL', process.env.FULCRUM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', 5432],
  ['Redis', process.env.FULCRUM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', 6379],
];

const reachable = (host, port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3000 });
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });

let ok = true;
for (const [name, url, defaultPort] of services) {
  const { hostname, port } = new URL(url);
  if (await reachable(hostname, Number(port || defaultPort))) {
    console.log(`${name} reachable at ${hostname}:${port || defaultPort}`);
  } else {
    ok = false;
    console.error(`${name} is NOT reachable at ${hostname}:${port || defaultPort} (${url}). Start it (see docs/deployment.md) and run the tests again.`);
  }
}
process.exit(ok ? 0 : 1);
