/**
 * One connection, one request at a time, for a fixed time: the latency of a single page with sub-millisecond
 * resolution (autocannon's histogram counts whole milliseconds, too coarse to compare 1.5x at a few ms).
 * Runs in its own process on the load core. Input: a JSON LoadSpec file as argv[2]; prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { median, percentile } from '../gateway/src/testing/measure.js';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  seconds: number;
  warmupSeconds: number;
  anyStatus?: boolean;
};
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const url = new URL(spec.url);
const body = spec.body === undefined ? undefined : Buffer.from(spec.body);

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: spec.method ?? 'GET',
        headers: { ...spec.headers, ...(body ? { 'content-length': body.length } : {}) },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () =>
          res.statusCode && res.statusCode < (spec.anyStatus ? 500 : 300) ? resolve(performance.now() - t0) : reject(new Error(`status ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const warmEnd = performance.now() + spec.warmupSeconds * 1000;
while (performance.now() < warmEnd) await once();
const samples: number[] = [];
const started = performance.now();
const end = started + spec.seconds * 1000;
while (performance.now() < end) samples.push(await once());
const elapsed = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    rps: samples.length / elapsed,
    p50: median(samples),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    requests: samples.length,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
  }),
);
agent.destroy();
