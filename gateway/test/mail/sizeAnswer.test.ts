/**
 * The listener's size refusals say `552 5.3.4` once (docs/email.md "Limits of incoming mail"): a `MAIL FROM ...
 * SIZE=` that announces more than FULCRUM_MAIL_MAX_BYTES, and a message that turns out bigger. A raw SMTP
 * conversation on 127.0.0.1; SQLite, or PostgreSQL + Redis in the second pass.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { fixedResolver } from './support.js';

const MAX_BYTES = 50_000;
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({ incomingMail: { listen: '127.0.0.1:0', maxBytes: MAX_BYTES, defaultAgent: 'demo@fulcrum.app', resolver: fixedResolver } });
}, 60_000);
afterAll(() => gw?.destroy());

/** Speaks `lines` one at a time, each after the previous answer; resolves with every answer line. */
function converse(port: number, lines: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const answers: string[] = [];
    let buffer = '';
    let next = 0;
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        answers.push(line);
        if (/^\d{3} /.test(line)) {
          if (next < lines.length) socket.write(lines[next++]);
          else socket.end();
        }
      }
    });
    socket.on('close', () => resolve(answers));
    socket.on('error', reject);
  });
}

describe('size refusals', () => {
  it('MAIL FROM with SIZE= beyond the limit, and a bigger message, are answered 552 5.3.4 once', async () => {
    const port = gw.smtp!.port;
    const announced = await converse(port, ['EHLO client.test\r\n', `MAIL FROM:<big@good.test> SIZE=${MAX_BYTES + 1}\r\n`, 'QUIT\r\n']);
    const refusal = announced.find((l) => l.startsWith('552'));
    expect(refusal).toMatch(/^552 5\.3\.4 [^0-9]/);
    const body = `From: big@good.test\r\nSubject: big\r\n\r\n${'x'.repeat(MAX_BYTES + 100)}\r\n.\r\n`;
    const sent = await converse(port, [
      'EHLO client.test\r\n',
      'MAIL FROM:<big@good.test>\r\n',
      'RCPT TO:<help@fulcrum.test>\r\n',
      'DATA\r\n',
      body,
      'QUIT\r\n',
    ]);
    const tooBig = sent.find((l) => l.startsWith('552'));
    expect(tooBig).toMatch(/^552 5\.3\.4 [^0-9]/);
  });
});
