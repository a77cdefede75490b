/**
 * One delivery attempt over node:http / node:https. The socket goes to the address ssrf.ts checked (a `lookup`
 * that answers with it), while the Host header and the TLS server name stay the URL's host name, so certificates
 * are verified as usual. 3 s to connect, 10 s in all, redirects not followed (node:http never follows), and at
 * most 64 kB of the response read.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Destination } from './ssrf.js';

export interface HttpLimits {
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  maxResponseBytes: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = { connectTimeoutMs: 3_000, totalTimeoutMs: 10_000, maxResponseBytes: 64 * 1024 };

/** How much of a response the delivery log keeps. */
export const RESPONSE_EXCERPT_CHARS = 1024;

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed when there is no status (timeout, refused, TLS), or a note on a 3xx. */
  error: string | null;
  responseExcerpt: string | null;
}

export function postJson(
  destination: Destination,
  headers: Record<string, string>,
  body: string,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const { address, family } = destination.addresses[0];
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const transport = destination.url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
    };
    const request = transport.request(destination.url, {
      method: 'POST',
      lookup,
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Fulcrum-Webhooks/1', ...headers },
    });
    const fail = (message: string) => {
      finish({ statusCode: null, error: message, responseExcerpt: null });
      request.destroy();
    };
    const connectTimer = setTimeout(() => fail(`Could not connect within ${limits.connectTimeoutMs / 1000} s.`), limits.connectTimeoutMs);
    const totalTimer = setTimeout(() => fail(`No complete response within ${limits.totalTimeoutMs / 1000} s.`), limits.totalTimeoutMs);
    request.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    // Node's messages mostly name their code already ("connect ECONNREFUSED 10.0.0.1:443"): named once, not twice.
    request.on('error', (error: NodeJS.ErrnoException) =>
      fail(`${error.code && !error.message.includes(error.code) ? `${error.code}: ` : ''}${error.message}`.slice(0, 300)),
    );
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS);
        const status = response.statusCode ?? null;
        const note =
          status !== null && status >= 300 && status < 400
            ? `Redirects are not followed (Location: ${String(response.headers.location ?? '').slice(0, 200)}).`
            : null;
        finish({ statusCode: status, error: note, responseExcerpt: text || null });
      };
      response.on('data', (chunk: Buffer) => {
        if (size >= limits.maxResponseBytes) return;
        const room = limits.maxResponseBytes - size;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        size += Math.min(chunk.length, room);
        if (size >= limits.maxResponseBytes) {
          done();
          response.destroy();
        }
      });
      response.on('end', done);
      response.on('error', done);
      response.on('close', done);
    });
    request.end(body);
  });
}
