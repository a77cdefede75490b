/**
 * Live view counts (issue 28, Subscription.viewCountEvents): after a ticket change anywhere (any gateway: the ticket
 * topic crosses Redis), each open subscription of an agent who may read the ticket (its live audience, the access
 * rule's `subscribe`) gets the counts of its views that changed; after a change of the viewer's set of views (the
 * `viewList` topic) the views gained and removed too.
 *
 * One hub per process (per event bus), shared by every socket of the gateway. A change asks for its viewers'
 * counts; the requests of one window (VIEW_COUNT_WINDOW_MS) are served together: the viewers' scopes (one
 * statement), their views (two), and each distinct count once, whoever asks it (countKey: a team view's count is
 * the same for all members; My tickets is each agent's own), in statements of up to COUNTS_PER_STATEMENT counts. So
 * the SQL per write is bounded by the window, not by sockets or views, and a socket hears at most one batch per
 * window. Counts are read from the database each time (exact; the hub keeps only what each socket was last sent).
 */
import { Repeater } from '@graphql-yoga/subscription';
import { forkEm } from '../database.js';
import * as ticketAccess from './ticketAccess.js';
import { viewTotals } from './ticketPages.js';
import { countKey, countOf, viewsOf, type ViewCountRecord } from './views.js';
import { requireViewer, type ServiceContext, type ServiceDeps } from './context.js';

/** How long a change waits for others before counts are read: at most 1000 / this batches per second per socket. */
export const VIEW_COUNT_WINDOW_MS = 250;
/** Counts read by one statement (a union of one counts row each). */
const COUNTS_PER_STATEMENT = 200;

interface Watcher {
  viewerId: number;
  /** What this socket was last sent, per view id (null: nothing yet, the first batch is every count). */
  last: Map<number, number> | null;
  push(counts: ViewCountRecord[]): void;
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
      const perViewer = new Map<number, { viewId: number; at: number }[]>();
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
            return { viewId: view.id, at };
          }),
        );
      }
      const totals: number[] = [];
      for (let i = 0; i < counted.length; i += COUNTS_PER_STATEMENT) totals.push(...(await viewTotals({ em }, counted.slice(i, i + COUNTS_PER_STATEMENT))));
      for (const [viewerId, list] of perViewer) {
        const counts = new Map(list.map(({ viewId, at }) => [viewId, totals[at]] as const));
        for (const watcher of this.#watchers.get(viewerId) ?? []) deliver(watcher, counts);
      }
    } catch (error) {
      console.error('[fulcrum] view counts:', error);
      // Tried again at the next window (a database blip must not leave sidebars wrong until the next change).
      for (const id of viewerIds) this.request(id);
    }
  }
}

/**
 * Sends a socket the counts that differ from what it was last sent (every count the first time): a view it was not
 * sent before is one the viewer gained, and a view it was sent that is no longer among the viewer's views goes as
 * `removed`.
 */
function deliver(watcher: Watcher, counts: Map<number, number>): void {
  const changed: ViewCountRecord[] = [];
  for (const [viewId, count] of counts) if (watcher.last?.get(viewId) !== count) changed.push({ viewId, count });
  for (const viewId of watcher.last?.keys() ?? []) if (!counts.has(viewId)) changed.push({ viewId, count: 0, removed: true });
  watcher.last = counts;
  if (changed.length) watcher.push(changed);
}

const hubs = new WeakMap<object, ViewCountHub>();

function hubOf(deps: ServiceDeps): ViewCountHub {
  let hub = hubs.get(deps.bus);
  if (!hub) hubs.set(deps.bus, (hub = new ViewCountHub(deps)));
  return hub;
}

/**
 * The viewer's view counts as they change: first every count (so a client that subscribes after loading its views
 * misses nothing), then the changed ones after each window with a change the viewer may see.
 */
export function watchViewCounts(ctx: ServiceContext): AsyncIterable<ViewCountRecord[]> {
  const viewerId = requireViewer(ctx);
  const hub = hubOf(ctx.deps);
  return new Repeater<ViewCountRecord[]>(async (push, stop) => {
    const watcher: Watcher = { viewerId, last: null, push: (counts) => void push(counts).catch(() => {}) };
    const events = ticketAccess.subscribe(ctx.deps.bus, viewerId);
    hub.add(watcher);
    // Which ticket changed does not matter: the viewer's counts are read again.
    // A change of the viewer's set of views (services/views.ts announceViewList, teams.ts) reads them again too.
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
