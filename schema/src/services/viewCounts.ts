/**
 * Live view counts (Subscription.viewCountEvents): after a ticket change anywhere (any gateway: the ticket
 * topic crosses Redis), each open subscription of an agent who may read the ticket (its live audience, the access
 * rule's `subscribe`) gets the counts of its views that changed; after a change of the viewer's set of views or of
 * one of them (the `viewList` topic) the views gained, changed (renamed, another filter, scope, team or sharing)
 * and removed too.
 *
 * One hub per process (per event bus), shared by every socket of the gateway. A change asks for its viewers'
 * counts; the requests of one window (VIEW_COUNT_WINDOW_MS) are served together: the viewers' scopes (one
 * statement), their views (two), and each distinct count once, whoever asks it (countKey: a team view's count is
 * the same for all members; My tickets is each agent's own), in statements of up to COUNTS_PER_STATEMENT counts;
 * and when views are sent whole, their teams (two statements for all of them). So the SQL per write is bounded by
 * the window, not by sockets or views, and a socket hears at most one batch per window. Counts are read from the
 * database each time (exact; the hub keeps only what each socket was last sent: per view its count and signature).
 */
import { Repeater } from '@graphql-yoga/subscription';
import { forkEm } from '../database.js';
import type { TeamRecord } from '../records/index.js';
import * as ticketAccess from './ticketAccess.js';
import { viewTotals } from './ticketReads.js';
import { teamsByIds } from './teams.js';
import { countKey, countOf, viewsOf, type ViewCountRecord, type ViewDefinition } from './views.js';
import { requireViewer, type ServiceContext, type ServiceDeps } from './context.js';

/** How long a change waits for others before counts are read: at most 1000 / this batches per second per socket. */
export const VIEW_COUNT_WINDOW_MS = 250;
/** Counts read by one statement (a union of one counts row each). */
const COUNTS_PER_STATEMENT = 200;

/** What a socket was sent of a view: its count, and its signature (viewSignature). */
interface Sent {
  count: number;
  signature: string;
}

interface Watcher {
  viewerId: number;
  /** What this socket was last sent, per view id (null: nothing yet, the first batch is every view). */
  last: Map<number, Sent> | null;
  push(counts: ViewCountRecord[]): void;
}

/** A view as the viewer reads it now, and its count. */
interface Current {
  view: ViewDefinition;
  count: number;
  signature: string;
}

/** What a client shows of a view besides its count: when it differs from what a socket was sent, the view is sent. */
function viewSignature(view: ViewDefinition): string {
  return JSON.stringify([view.name, view.scope, view.teamId, view.shared, view.filter]);
}

class ViewCountHub {
  readonly #watchers = new Map<number, Set<Watcher>>();
  readonly #pending = new Set<number>();
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> = Promise.resolve();

  constructor(readonly deps: ServiceDeps) {}

  add(watcher: Watcher): void {
    let set = this.#watchers.get(watcher.viewerId);
    if (!set) this.#watchers.set(watcher.viewerId, (set = new Set()));
    set.add(watcher);
  }

  remove(watcher: Watcher): void {
    const set = this.#watchers.get(watcher.viewerId);
    set?.delete(watcher);
    if (set?.size === 0) this.#watchers.delete(watcher.viewerId);
  }

  /** The viewer's counts may have changed: read them at the end of the current window. */
  request(viewerId: number): void {
    this.#pending.add(viewerId);
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      // One window's read at a time: a window that ends while the last is still reading waits for it.
      this.#running = this.#running.then(() => this.#flush());
    }, VIEW_COUNT_WINDOW_MS);
    this.#timer.unref?.();
  }

  async #flush(): Promise<void> {
    const viewerIds = [...this.#pending].filter((id) => this.#watchers.has(id));
    this.#pending.clear();
    if (!viewerIds.length) return;
    try {
      const em = forkEm(this.deps.orm);
      const scopes = await ticketAccess.scopesOf(em, viewerIds);
      const views = await viewsOf(em, [...scopes.values()]);
      // Each distinct count once.
      const keys = new Map<string, number>();
      const counted: ReturnType<typeof countOf>[] = [];
      const perViewer = new Map<number, { view: ViewDefinition; at: number }[]>();
      for (const [viewerId, list] of views) {
        const scope = scopes.get(viewerId)!;
        perViewer.set(
          viewerId,
          list.map((view) => {
            const key = countKey(scope, view);
            let at = keys.get(key);
            if (at === undefined) {
              keys.set(key, (at = counted.length));
              counted.push(countOf(scope, view));
            }
            return { view, at };
          }),
        );
      }
      const totals: number[] = [];
      for (let i = 0; i < counted.length; i += COUNTS_PER_STATEMENT) totals.push(...(await viewTotals({ em }, counted.slice(i, i + COUNTS_PER_STATEMENT))));
      const batches: { watcher: Watcher; batch: Batch }[] = [];
      for (const [viewerId, list] of perViewer) {
        const current = new Map(list.map(({ view, at }) => [view.id, { view, count: totals[at], signature: viewSignature(view) }] as const));
        for (const watcher of this.#watchers.get(viewerId) ?? []) batches.push({ watcher, batch: changesFor(watcher, current) });
      }
      // The teams of the views sent whole, once for every socket (the GraphQL `team` field then reads nothing).
      const teamIds = new Set(batches.flatMap(({ batch }) => batch.changed.flatMap((c) => (c.view?.teamId == null ? [] : [c.view.teamId]))));
      const system: ServiceContext = { em, viewerId: null, deps: this.deps, clientIp: '', via: 'SYSTEM' };
      const teams = teamIds.size ? await teamsByIds(system, [...teamIds]) : new Map<number, TeamRecord>();
      for (const { watcher, batch } of batches) {
        // Only now, after every read: a failed window is read again and sends what this one would have.
        watcher.last = batch.next;
        if (!batch.changed.length) continue;
        watcher.push(
          batch.changed.map(({ view, ...change }) =>
            view ? { ...change, view: { ...view, count: change.count, team: teams.get(view.teamId ?? 0) ?? null } } : change,
          ),
        );
      }
    } catch (error) {
      console.error('[fulcrum] view counts:', error);
      // Tried again at the next window (a database blip must not leave sidebars wrong until the next change).
      for (const id of viewerIds) this.request(id);
    }
  }
}

interface Batch {
  changed: (Omit<ViewCountRecord, 'view'> & { view?: ViewDefinition })[];
  next: Map<number, Sent>;
}

/**
 * What a socket is to be sent: the counts that differ from what it was last sent (every count the first time); a
 * view it was not sent before (one the viewer gained) or whose signature changed (renamed, ...) whole; and a view it
 * was sent that is no longer among the viewer's views as `removed`.
 */
function changesFor(watcher: Watcher, current: Map<number, Current>): Batch {
  const changed: Batch['changed'] = [];
  const next = new Map<number, Sent>();
  for (const [viewId, { view, count, signature }] of current) {
    const sent = watcher.last?.get(viewId);
    if (sent?.signature !== signature) changed.push({ viewId, count, view });
    else if (sent.count !== count) changed.push({ viewId, count });
    next.set(viewId, { count, signature });
  }
  for (const viewId of watcher.last?.keys() ?? []) if (!current.has(viewId)) changed.push({ viewId, count: 0, removed: true });
  return { changed, next };
}

const hubs = new WeakMap<object, ViewCountHub>();

function hubOf(deps: ServiceDeps): ViewCountHub {
  let hub = hubs.get(deps.bus);
  if (!hub) hubs.set(deps.bus, (hub = new ViewCountHub(deps)));
  return hub;
}

/**
 * The viewer's view counts as they change: first every view with its count (so a client that subscribes after
 * loading its views misses nothing), then the changed counts after each window with a change the viewer may see,
 * and the views gained or changed whole.
 */
export function watchViewCounts(ctx: ServiceContext): AsyncIterable<ViewCountRecord[]> {
  const viewerId = requireViewer(ctx);
  const hub = hubOf(ctx.deps);
  return new Repeater<ViewCountRecord[]>(async (push, stop) => {
    const watcher: Watcher = { viewerId, last: null, push: (counts) => void push(counts).catch(() => {}) };
    const events = ticketAccess.subscribe(ctx.deps.bus, viewerId);
    hub.add(watcher);
    // Which ticket changed does not matter: the viewer's counts are read again.
    // A change of the viewer's set of views or of one of them (services/views.ts announceViewList, teams.ts) reads
    // them again too.
    const lists = ctx.deps.bus.subscribe('viewList', viewerId);
    const pump = async (source: AsyncIterator<unknown>) => {
      for (let step = await source.next(); !step.done; step = await source.next()) hub.request(viewerId);
    };
    const pumps = Promise.all([pump(events), pump(lists)]);
    hub.request(viewerId);
    await stop;
    hub.remove(watcher);
    await Promise.all([events.return?.(), lists.return?.()]);
    await pumps;
  });
}
