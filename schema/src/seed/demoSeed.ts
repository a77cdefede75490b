import type { Orm } from '../database.js';
import { Customer, Macro, Message, Ticket, TicketImage, User } from '../entities/index.js';
import { rebuildConversations } from '../services/conversations.js';
import { appendTicketEvents, webhookEvent } from '../services/changeLog.js';
import { hashPassword } from '../services/auth.js';
import { checkImage } from '../services/images.js';
import { usernameKey } from '../text/usernames.js';
import { NO_MACRO_ID, TICKET_PRIORITIES, TICKET_TYPES } from '../validation/rules.js';
import { demoTicketImage } from './demoImages.js';
import { DEMO_ACCOUNTS } from './demoAccounts.js';

export { DEMO_ACCOUNTS } from './demoAccounts.js';

const CUSTOMERS = [
  'Ada Lovelace',
  'Grace Hopper',
  'Alan Turing',
  'Katherine Johnson',
  'Linus Torvalds',
  'Margaret Hamilton',
  'Tim Berners-Lee',
  'Barbara Liskov',
  'Dennis Ritchie',
  'Frances Allen',
  'Ken Thompson',
  'Radia Perlman',
  'Donald Knuth',
  'Hedy Lamarr',
  'John McCarthy',
  'Annie Easley',
  'Edsger Dijkstra',
  'Sophie Wilson',
  'Guido van Rossum',
  'Adele Goldberg',
];

const MACROS: { name: string; description: string; owner: number }[] = [
  {
    name: 'Password reset',
    // A reply that asks nothing of a screen Fulcrum does not have: the agent resets the password, the customer gets an email.
    description:
      'Hi! We have reset your password and emailed a link to set a new one to the address on your account. Reply here if it does not arrive within a few minutes.',
    owner: 0,
  },
  {
    name: 'Refund issued',
    description: 'We have issued a full refund to your original payment method. It usually shows within 5 to 7 business days.',
    owner: 0,
  },
  { name: 'Need more details', description: 'Thanks for reaching out. Could you send us a screenshot and the steps that lead to the problem?', owner: 1 },
  { name: 'Escalated to engineering', description: 'We have passed this on to our engineers and will update you as soon as we hear back.', owner: 1 },
  { name: 'Closing the loop', description: 'It looks like this is resolved, so we will close this ticket. Reply any time to reopen it.', owner: 2 },
];

const TICKETS = [
  ['Cannot log in after update', 'Since this morning the app rejects my password even though it worked yesterday.'],
  ['Invoice shows wrong VAT', 'The invoice for October lists 19% VAT but we are registered in a 21% country.'],
  ['Export to CSV is empty', 'Exporting the report gives a file with headers but no rows.'],
  ['Feature request: dark mode', 'Our night shift would love a dark theme for the dashboard.'],
  ['Charged twice this month', 'My card statement shows two identical charges on the 3rd.'],
  ['Mobile app crashes on start', 'The Android app closes right after the splash screen on a Pixel 7.'],
  ['How do I add a teammate?', 'I cannot find where to invite a colleague to our workspace.'],
  ['Slow page loads in reports', 'The reports page takes over ten seconds to open since Tuesday.'],
  ['Two-factor code not arriving', 'The SMS with the login code never arrives on my phone.'],
  ['Webhook retries too often', 'Our endpoint receives the same webhook five times within a minute.'],
  ['Change billing email', 'Please send invoices to accounts@ instead of my personal address.'],
  ['Data import stuck at 90%', 'The import of 4,000 contacts has been stuck at 90% for an hour.'],
  ['API rate limit question', 'What is the request limit per minute for the public API?'],
  ['Broken link in welcome email', 'The "Get started" button in the welcome email leads to a 404 page.'],
  ['Cancel my subscription', 'We are moving to another tool and would like to cancel at the end of the term.'],
  ['Search ignores accents', 'Searching for "Jose" does not find "José" in the customer list.'],
  ['Calendar sync duplicates', 'Every synced event shows up twice in Google Calendar.'],
  ['Printer layout cut off', 'Printing a ticket cuts off the right side of the description.'],
  ['SSO setup help', 'We would like to connect our Okta tenant; where do we start?'],
  ['Notification sound too loud', 'Is there a way to lower or turn off the new-ticket sound?'],
  ['Timezone wrong on reports', 'Reports use UTC while our account is set to Europe/Berlin.'],
];

const MESSAGES: [from: number, to: number, text: string][] = [
  [0, 1, 'Morning Marnie! Could you take the VAT invoice ticket today?'],
  [1, 0, 'Sure, I will pick it up after standup.'],
  [2, 0, 'The import ticket looks like the same bug as last week. Want me to link them?'],
  [0, 2, 'Yes please, and loop in engineering.'],
  [1, 2, 'Lunch at 12:30?'],
];

/** True when the database has no agents yet (a fresh install). */
export async function isEmptyDatabase(orm: Orm): Promise<boolean> {
  return (await orm.em.fork().count(User, {})) === 0;
}

/**
 * Seeds the demo workspace into an empty database, in one transaction: 3 agents (ids 1, 2, 3), 20 customers,
 * 5 macros besides macro 1, 21 tickets with images, and a few messages. Every value passes the service rules.
 */
export async function seedDemo(orm: Orm): Promise<void> {
  if (!(await isEmptyDatabase(orm))) return;
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hashPassword(a.password)));
  const images = await Promise.all(TICKETS.map((_, i) => checkImage(demoTicketImage(i + 1))));
  await orm.em.fork().transactional(async (em) => {
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const users = DEMO_ACCOUNTS.map((a, i) =>
      em.create(User, {
        username: a.username,
        usernameKey: usernameKey(a.username),
        email: a.email,
        passwordHash: hashes[i],
        // The demo account is the admin; Marnie and Bobbie are agents, in no common team.
        role: a.email === 'demo@fulcrum.app' ? 'ADMIN' : 'AGENT',
        createdAt: at(10_000 - i),
      }),
    );
    await em.flush();
    const customers = CUSTOMERS.map((name, i) =>
      em.create(Customer, { name, email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`, owner: users[i % 3], createdAt: at(9_000 - i) }),
    );
    const macros = MACROS.map((m, i) => em.create(Macro, { name: m.name, description: m.description, owner: users[m.owner], createdAt: at(8_000 - i) }));
    await em.flush();
    const tickets = TICKETS.map(([title, description], i) => {
      const assignee = users[i % 3];
      const ownMacros = macros.filter((m) => m.owner?.id === assignee.id);
      const macro = i % 4 === 0 || ownMacros.length === 0 ? em.getReference(Macro, NO_MACRO_ID) : ownMacros[i % ownMacros.length];
      const ticket = em.create(Ticket, {
        title,
        description,
        assignee,
        macro,
        type: TICKET_TYPES[i % TICKET_TYPES.length],
        priority: TICKET_PRIORITIES[(i * 3) % TICKET_PRIORITIES.length],
        requester: customers[(i * 7) % customers.length],
        createdAt: at(5_000 - i * 60),
        updatedAt: at(5_000 - i * 60),
      });
      em.create(TicketImage, { ticket, ...images[i], createdAt: at(5_000 - i * 60) });
      return ticket;
    });
    await em.flush();
    // Each ticket's record starts with its creation, by the system (the seed), at the time the seed gives it.
    const created = tickets.map((t) => ({ ...webhookEvent.ticket('CREATED', t).ticketEvent!, at: t.createdAt }));
    await appendTicketEvents({ viewerId: null, via: 'SYSTEM' }, em, created);
    MESSAGES.forEach(([from, to, text], i) =>
      em.create(Message, { sender: users[from], receiver: users[to], text, createdAt: at(300 - i * 10), updatedAt: at(300 - i * 10) }),
    );
    await em.flush();
    await rebuildConversations(em);
  });
}
