/**
 * The shapes of the Postfix interop test that mail servers give mail (postfixShapes.ts has the clients'): a
 * person's mail through an Exchange distribution list (X-Auto-Response-Suppress: a ticket, never automatic), a
 * reply carrying a 320 kB history, and automatic mail that opens no ticket and is listed for admins with its
 * cause (an out-of-office reply, a DSN of mail not ours, list mail, a notification).
 */
import { eml, head, loop, ticket, type Shape } from './postfixShapes.js';

export const SERVER_SHAPES: Shape[] = [
  {
    name: 'X-Auto-Response-Suppress from an Exchange distribution list: a person’s mail, a ticket',
    sender: 'dana@good.test',
    raw: (id) =>
      eml([
        ...head(
          'Dana <dana@good.test>',
          'Printer on floor 3',
          id,
          'X-Auto-Response-Suppress: DR, OOF, AutoReply',
          'X-MS-Exchange-Organization-Network-Message-Id: 3f7c1d2e-0000-4a4b-9c9d-1234567890ab',
          'X-MS-Exchange-Organization-ExpansionProcessed: 1',
          'Content-Type: text/plain; charset=us-ascii',
        ),
        '',
        'The printer on floor 3 prints blank pages.',
      ]),
    expected: ticket('Printer on floor 3', 'The printer on floor 3 prints blank pages.'),
  },
  {
    name: 'a 320 kB history: an Outlook reply with its separator and a long quoted thread',
    sender: 'hana@good.test',
    raw: (id) =>
      eml([
        ...head('Hana <hana@good.test>', 'RE: Contract renewal', id, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 7bit'),
        '',
        'We agree with the new terms; please send the contract.',
        '',
        '________________________________',
        'From: Legal <legal@good.test>',
        'Sent: Friday, December 4, 2026 17:02',
        ...Array.from({ length: 4600 }, (_, i) => `> ${i}: earlier discussion of clause ${i % 40} and its wording, kept for the record.`),
      ]),
    expected: ticket('RE: Contract renewal', 'We agree with the new terms; please send the contract.'),
  },
  {
    name: 'an out-of-office reply (Auto-Submitted: auto-replied): no ticket',
    sender: 'olga@good.test',
    raw: (id) =>
      eml([
        ...head(
          'Olga <olga@good.test>',
          'Automatic reply: Your request',
          id,
          'Auto-Submitted: auto-replied',
          'X-Auto-Response-Suppress: All',
          'Content-Type: text/plain; charset=utf-8',
        ),
        '',
        'I am out of the office until 4 January.',
      ]),
    expected: loop('Auto-Submitted: auto-replied'),
  },
  {
    name: 'a DSN of mail not ours (multipart/report, MAIL FROM:<>): no ticket',
    sender: '',
    raw: (id) =>
      eml([
        ...head('Mail Delivery System <MAILER-DAEMON@good.test>', 'Undelivered Mail Returned to Sender', id),
        'Content-Type: multipart/report; report-type=delivery-status; boundary="dsn-other"',
        '',
        '--dsn-other',
        'Content-Type: text/plain',
        '',
        'Your message could not be delivered.',
        '--dsn-other',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.good.test',
        '',
        'Final-Recipient: rfc822; nobody@good.test',
        'Action: failed',
        'Status: 5.1.1',
        '',
        '--dsn-other',
        'Content-Type: text/rfc822-headers',
        '',
        'From: someone@elsewhere.test',
        'Message-ID: <not-ours-1@elsewhere.test>',
        '--dsn-other--',
      ]),
    expected: loop('mailer-daemon'),
  },
  {
    name: 'list mail (List-Id, Precedence: list): no ticket',
    sender: 'news-bounces@lists.good.test',
    raw: (id) =>
      eml([
        ...head(
          'Product News <news@lists.good.test>',
          '[news] December release',
          id,
          'List-Id: Product News <news.lists.good.test>',
          'List-Unsubscribe: <mailto:leave@lists.good.test>',
          'Precedence: list',
        ),
        'Content-Type: text/plain; charset=utf-8',
        '',
        'This month: dark mode.',
      ]),
    expected: loop('Precedence: list'),
  },
  {
    name: 'an auto-generated notification (Auto-Submitted: auto-generated, X-Autoreply): no ticket',
    sender: 'noreply@good.test',
    raw: (id) =>
      eml([
        ...head('noreply@good.test', 'Your password expires soon', id, 'Auto-Submitted: auto-generated', 'X-Autoreply: yes', 'Content-Type: text/plain'),
        '',
        'It expires in 5 days.',
      ]),
    expected: loop('Auto-Submitted: auto-generated'),
  },
];
