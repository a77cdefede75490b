/**
 * Access control matrix: two agents x every id-taking REST route, GraphQL field and subscription x
 * read/update/delete, in both directions (the attempts: accessAttempts.ts; the owned records: accessKit.ts). The
 * walk over the schema and the router proves every id-taking route and field is covered. Without a session:
 * accessAnonymous.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFulcrumSchema } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';
import { figure, sleep } from '../../src/testing/measure.js';
import { openAckedSocket, type RawSocket } from '../../src/testing/wsClient.js';
import { attempts, SHARED_BY_DESIGN } from './accessAttempts.js';
import { createOwned, restRoutes, snapshot } from './accessKit.js';

let gw: TestGateway;
let agents: TestClient[];
beforeAll(async () => ([gw, ...agents] = await startSignedIn(0, 1, 2)));
afterAll(() => gw.destroy());

describe('access control matrix', () => {
  it('two agents x every id-taking route, field and subscription x read/update/delete: 0 unauthorized successes', async () => {
    let total = 0;
    const successes: string[] = [];
    const coveredRoutes = new Set<string>();
    const coveredFields = new Set<string>();
    const liveLeaks: string[] = [];
    let liveEventsChecked = 0;

    for (const [ownerIndex, attackerIndex] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const owner = agents[ownerIndex];
      const attacker = agents[attackerIndex];
      const owned = await createOwned(gw, agents, ownerIndex, attackerIndex);
      const before = await snapshot(owner, owned);

      // The attacker listens to every subscription while the owner works on their own records.
      const socket: RawSocket = await openAckedSocket(gw.url, attacker.cookieHeader);
      const subs = {
        t: 'subscription { ticketEvents { kind id ticket { id } } }',
        m: 'subscription { macroEvents { kind id macro { id } } }',
        g: 'subscription { messageEvents { kind id senderId receiverId message { id text } } }',
        u: 'subscription { unreadCountEvents { reason unreadMessageCount conversation { partnerId } } }',
        y: 'subscription { typingEvents { senderId } }',
        // Another agent's ticket: refused at subscribe (NOT_FOUND), so nothing of it can arrive.
        tl: `subscription { ticketTimelineEvents(ticketId: ${owned.ticket}) { ... on TicketChange { seq } ... on TicketNote { seq } } }`,
        rd: `subscription { replyDeliveryEvents(ticketId: ${owned.ticket}) { id } }`,
        vc: 'subscription { viewCountEvents { viewId count } }',
      };
      for (const [id, query] of Object.entries(subs)) socket.send({ id, type: 'subscribe', payload: { query } });
      await sleep(300);

      for (const attempt of attempts(attacker, owned, owner)) {
        total++;
        if (attempt.route) coveredRoutes.add(attempt.route);
        if (attempt.field) coveredFields.add(attempt.field);
        if (await attempt.run()) successes.push(`${attackerIndex + 1} -> ${ownerIndex + 1}: ${attempt.name}`);
      }
      expect(await snapshot(owner, owned)).toBe(before);

      // The owner changes their own records; none of it may reach the attacker's subscriptions.
      const third = [1, 2, 3].find((id) => id !== ownerIndex + 1 && id !== attackerIndex + 1)!;
      await owner.put(`/api/tickets/${owned.ticket}/edit`, { ...validTicket(owned.customer), title: 'owner edit' });
      await owner.put(`/api/macro/edit/${owned.macro}`, { name: 'owner edit', description: 'still private' });
      await owner.post(`/api/messages/create/too/${third}`, { message: 'private to third' });
      await owner.put(`/api/messages/edit/${owned.sent}`, { message: 'edited privately' });
      const extraTicket = (await owner.post('/api/tickets/create', validTicket(owned.customer))).body.id;
      await owner.get(`/api/tickets/${extraTicket}/delete`);
      await owner.gql('mutation($p: Int!) { notifyTyping(partnerId: $p) }', { p: third });
      // A sentinel of the attacker's own proves the sockets are live: once it arrives, anything leaked would have too.
      const own = (await attacker.post('/api/tickets/create', validTicket(owned.customer))).body.id;
      const ownMacro = (await attacker.post('/api/macro/create', { name: 'sentinel', description: 'mine' })).body.id;
      const ownMessage = (await attacker.post(`/api/messages/create/too/${third}`, { message: 'sentinel' })).body.id;
      // The third agent's message and typing to the attacker: the attacker's own unread and typing events.
      const thirdAgent = agents[third - 1];
      await thirdAgent.post(`/api/messages/create/too/${attackerIndex + 1}`, { message: 'sentinel to the attacker' });
      const typeToAttacker = async () =>
        (await thirdAgent.gql('mutation($p: Int!) { notifyTyping(partnerId: $p) }', { p: attackerIndex + 1 })).data?.notifyTyping;
      if (!(await typeToAttacker())) await sleep(2100).then(typeToAttacker); // at most one typing signal per 2 s per sender
      const deadline = Date.now() + 5000;
      const seen = () => socket.messages.filter((m) => m.type === 'next');
      const has = (sub: string, id: number) => seen().some((m) => m.id === sub && JSON.stringify(m.payload).includes(`"id":${id}`));
      const hasFrom = (sub: string, key: string, id: number) => seen().some((m) => m.id === sub && JSON.stringify(m.payload).includes(`"${key}":${id}`));
      const allLive = () => has('t', own) && has('m', ownMacro) && has('g', ownMessage) && hasFrom('u', 'partnerId', third) && hasFrom('y', 'senderId', third);
      while (!allLive() && Date.now() < deadline) await sleep(20);
      expect(allLive()).toBe(true);
      // The owner's timeline was refused to the attacker, as NOT_FOUND (never FORBIDDEN: the ticket is not theirs to know of).
      expect(JSON.stringify(socket.messages.filter((m) => m.id === 'tl'))).toContain('NOT_FOUND');
      expect(JSON.stringify(socket.messages.filter((m) => m.id === 'rd'))).toContain('NOT_FOUND');
      const me = attackerIndex + 1;
      for (const m of seen()) {
        liveEventsChecked++;
        const data = m.payload?.data ?? {};
        const leaked =
          (m.id === 't' && [owned.ticket, extraTicket].includes(data.ticketEvents?.id)) ||
          (m.id === 'm' && data.macroEvents?.id === owned.macro) ||
          (m.id === 'g' && data.messageEvents?.senderId !== me && data.messageEvents?.receiverId !== me) ||
          (m.id === 'u' && data.unreadCountEvents?.conversation?.partnerId !== third) ||
          (m.id === 'y' && data.typingEvents?.senderId !== third) ||
          (m.id === 'tl' && data.ticketTimelineEvents != null) ||
          (m.id === 'rd' && data.replyDeliveryEvents != null) ||
          (m.id === 'vc' && (data.viewCountEvents ?? []).some((c: { viewId: number }) => c.viewId === owned.view));
        if (leaked) liveLeaks.push(JSON.stringify(m.payload));
      }
      total += 7; // seven owner changes the attacker's five subscriptions must not see
      socket.ws.close();
      for (const f of [
        'Subscription.ticketEvents',
        'Subscription.macroEvents',
        'Subscription.messageEvents',
        'Subscription.unreadCountEvents',
        'Subscription.typingEvents',
        'Subscription.ticketTimelineEvents',
        'Subscription.replyDeliveryEvents',
        'Subscription.viewCountEvents',
      ])
        coveredFields.add(f);
    }

    // Every id-taking REST route and GraphQL field is in the matrix.
    const idRoutes = restRoutes(gw)
      .filter((r) => r.path.includes(':'))
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !r.includes('/validate/'));
    for (const route of idRoutes) if (!SHARED_BY_DESIGN.has(route)) expect(coveredRoutes, `matrix covers ${route}`).toContain(route);
    const schema = await buildFulcrumSchema();
    for (const type of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(type.getFields())) {
        if (SHARED_BY_DESIGN.has(`${type.name}.${field.name}`)) continue;
        if (field.args.some((a) => /^(id|withUserId)$/.test(a.name)))
          expect(coveredFields, `matrix covers ${type.name}.${field.name}`).toContain(`${type.name}.${field.name}`);
      }
    }
    for (const field of Object.keys(schema.getSubscriptionType()!.getFields())) {
      // The customer directory and who is online are shared by design.
      if (field !== 'customerEvents' && field !== 'presenceEvents') expect(coveredFields).toContain(`Subscription.${field}`);
    }

    // The shared reads do answer, and stay read-only (their writes are in the matrix above).
    expect((await agents[1].get('/api/customers/1')).status).toBe(200);
    expect(liveLeaks).toEqual([]);
    expect(successes).toEqual([]);
    figure(
      'access matrix',
      `${successes.length + liveLeaks.length} unauthorized successes out of ${total} attempts (2 agents x ${idRoutes.length} id routes, ${coveredFields.size} GraphQL fields and subscriptions; ${liveEventsChecked} live events checked)`,
    );
  });
});
