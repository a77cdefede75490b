/**
 * Sends one raw mail to the listener with any envelope sender, the empty one of a bounce (`MAIL FROM:<>`) included
 * (nodemailer's SMTP connection, which the transport would fill from the From header).
 */
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

export async function sendRaw(port: number, envelopeFrom: string, raw: string | Buffer, to = 'help@fulcrum.test'): Promise<string> {
  const connection = new SMTPConnection({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, connectionTimeout: 10_000 });
  await new Promise<void>((resolve, reject) => {
    connection.once('error', reject);
    connection.connect(() => resolve());
  });
  try {
    return await new Promise<string>((resolve, reject) =>
      connection.send({ from: envelopeFrom, to: [to] }, raw, (error, info) => (error ? reject(error) : resolve(info.response))),
    );
  } finally {
    connection.quit();
  }
}
