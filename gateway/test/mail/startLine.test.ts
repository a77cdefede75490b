/**
 * `npm start` says where the SMTP listener is when it is on (docs/email.md "The listener"): the bundle `npm start`
 * runs, with FULCRUM_SMTP_LISTEN on a free port, prints `fulcrum: SMTP listener on <host>:<port>`, and that port
 * answers SMTP. SQLite (the process's own DATA_DIR).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type StartedProcess } from '../../src/testing/processes.js';
import { freshId, sendTo, ticketIn } from './support.js';

let server: StartedProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-startline-'));
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the start-up line', () => {
  it('names the SMTP listener’s address, which accepts mail', async () => {
    const port = await freePort();
    server = await startServerProcess(
      { DATA_DIR: dataDir, FULCRUM_DEMO: '1', FULCRUM_SMTP_LISTEN: `127.0.0.1:${port}`, FULCRUM_MAIL_DEFAULT_AGENT: 'demo@fulcrum.app' },
      { timeoutMs: 60_000 },
    );
    await expect.poll(() => server!.output(), { timeout: 5_000 }).toContain(`fulcrum: SMTP listener on 127.0.0.1:${port}`);
    const sent = await sendTo(port, { from: 'start@example.test', subject: 'Hello', text: 'Is anyone there?', messageId: freshId('start') });
    expect(ticketIn(sent)).toBeGreaterThan(0);
  }, 120_000);
});
