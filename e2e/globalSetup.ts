/**
 * Starts the gateway once for all browser tests, as `npm start` runs it: the same web build step
 * (scripts/ensureWebBuilt.mjs), the same bundle (gateway/bundle.mjs) started by plain node, serving the built web
 * app from web/dist. What the suite checks is what a user gets (the suite once ran the gateway from
 * source while `npm start` served a schema with renamed types, and every screen was blank).
 *
 * Only the environment differs from a user's: 127.0.0.1 on a free port, a fresh temp DATA_DIR with the demo seed,
 * login and signup limits raised (every test signs in from 127.0.0.1) and webhook receivers allowed on 127.0.0.1.
 * FULCRUM_TEST_LOG=1 passes the gateway's output through.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureGatewayBundle } from '../gateway/bundle.mjs';
import { startProcess } from '../gateway/src/testing/processes';
import { ensureWebBuilt } from '../scripts/ensureWebBuilt.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The port the gateway mails to (SMTP_URL); requester.e2e.ts listens on it with a test SMTP server. */
    smtpPort: number;
    /** The gateway's own SMTP listener (FULCRUM_SMTP_LISTEN): incomingMail.e2e.ts mails the help desk there. */
    mailPort: number;
  }
}

/** The limits the browser suite needs (README, FULCRUM_AUTH_LIMITS); npm start keeps the published defaults. */
const E2E_AUTH_LIMITS = 'loginFailuresPerAccount=1000,loginFailuresPerIp=10000,signupsPerIp=10000,windowSeconds=60';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export default async function setup(project: TestProject) {
  ensureWebBuilt();
  const smtpPort = await freePort();
  const mailPort = await freePort();
  const bundle = await ensureGatewayBundle();
  const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-e2e-'));
  const passThrough = process.env.FULCRUM_TEST_LOG === '1';
  const gateway = await startProcess(process.execPath, [bundle], {
    name: 'e2e gateway (npm start bundle)',
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FULCRUM_DEMO: '1',
      // As `npm start` on a developer's machine: not production, so the explorer's introspection works.
      NODE_ENV: undefined,
      FULCRUM_INTROSPECTION: undefined,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      FULCRUM_AUTH_LIMITS: E2E_AUTH_LIMITS,
      FULCRUM_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      // Replies are mailed to requester.e2e.ts's SMTP server (none listens before it starts: those attempts retry).
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      FULCRUM_MAIL_FROM: 'Fulcrum e2e <help@fulcrum.test>',
      FULCRUM_MAIL_RETRY_DELAYS: '500,1000,2000,4000',
      FULCRUM_MAIL_POLL_MS: '500',
      // Incoming mail: mail to the help desk from a new address belongs to Demo.
      FULCRUM_SMTP_LISTEN: `127.0.0.1:${mailPort}`,
      FULCRUM_MAIL_DEFAULT_AGENT: 'demo@fulcrum.app',
    },
    timeoutMs: 60_000,
    onOutput: passThrough ? (chunk) => process.stdout.write(`[gateway] ${chunk}`) : undefined,
  });
  project.provide('baseURL', gateway.url);
  project.provide('smtpPort', smtpPort);
  project.provide('mailPort', mailPort);
  return async () => {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
