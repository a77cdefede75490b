/**
 * The drain on shutdown (gateway/src/http/drain.ts) never serves a request without answering it. A proxy opens a
 * connection and sends its request at once; when the drain begins between the two, the old rule ("no request in
 * flight: end the connection") ended it under the request, which was still read and served: during a rolling
 * restart behind nginx a message was stored and its sender answered 502. Over raw connections to a real gateway:
 * the request sent on a connection opened before the drain is answered (and stored), and a request sent on a
 * connection the drain has already closed is dropped unread (and not stored). SQLite, or PostgreSQL + Redis in the
 * second pass.
 */
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';

let gw: TestGateway;
let demo: TestClient;
beforeEach(async () => {
  gw = await startTestGateway();
  demo = await gw.as(0);
}, 60_000);
afterEach(() => gw?.destroy());

const CREATE = 'mutation ($name: String!) { createMacro(input: { name: $name, description: "drain" }) { id name } }';

function post(name: string, connection: 'keep-alive' | 'close' = 'keep-alive'): string {
  const body = JSON.stringify({ query: CREATE, variables: { name } });
  return [
    'POST /graphql HTTP/1.1',
    `Host: 127.0.0.1:${gw.port}`,
    'Content-Type: application/json',
    `Cookie: ${demo.cookieHeader}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Connection: ${connection}`,
    '',
    body,
  ].join('\r\n');
}

/** Everything the server sends on `socket` until it ends its side. */
async function readToEnd(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // 'close' too: a connection destroyed under the request never ends cleanly.
  await Promise.race([once(socket, 'end'), once(socket, 'close')]);
  return Buffer.concat(chunks).toString('utf8');
}

/** One complete answer (headers and a Content-Length body) read from a kept-alive `socket`. */
function readAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const head = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, head));
      if (head >= 0 && length && Buffer.byteLength(text.slice(head + 4)) >= Number(length[1])) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
  });
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 2));
}

const connections = () => new Promise<number>((resolve, reject) => gw.server.getConnections((error, n) => (error ? reject(error) : resolve(n))));

async function macroNames(restarted: TestGateway): Promise<string[]> {
  const client = await restarted.as(0);
  const res = await client.gql('{ macros(first: 100) { nodes { name } } }');
  expect(res.errors).toBeUndefined();
  return (res.data!.macros.nodes as { name: string }[]).map((m) => m.name);
}

describe('HTTP drain on shutdown', () => {
  it('answers the request of a connection opened before the drain and sent after it began, with Connection: close', async () => {
    const before = await connections();
    const socket = connect(gw.port, '127.0.0.1');
    await once(socket, 'connect');
    await until(async () => (await connections()) > before); // accepted by the server, no request yet
    const closing = gw.close();
    await until(() => !gw.server.listening); // the drain has begun: no new connections
    const answer = readToEnd(socket);
    socket.write(post('sent during the drain'));
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(text).toContain('"name":"sent during the drain"');
    await closing;
    gw = await gw.restart();
    expect(await macroNames(gw)).toContain('sent during the drain');
  });

  it('closes an answered connection that waits for its next request at once, and drops a request sent on it after that unread', async () => {
    const socket = connect({ port: gw.port, host: '127.0.0.1', allowHalfOpen: true });
    await once(socket, 'connect');
    const first = readAnswer(socket);
    socket.write(post('before the drain'));
    expect(await first).toMatch(/^HTTP\/1\.1 200/);
    const ended = once(socket, 'end');
    const closing = gw.close();
    await ended; // the server ended its side (keep-alive connection, no request in flight)
    const late: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => late.push(chunk));
    socket.write(post('sent on a closed connection', 'close'));
    socket.end();
    await once(socket, 'close');
    await closing;
    expect(Buffer.concat(late).toString('utf8')).toBe('');
    gw = await gw.restart();
    const names = await macroNames(gw);
    expect(names).toContain('before the drain');
    expect(names).not.toContain('sent on a closed connection');
  });
});
