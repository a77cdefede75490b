/**
 * Loading a screen's or a modal's code (a lazily imported chunk) in a tab that may be older than the server.
 *
 * After a redeploy the hashed chunk names of the old build are gone: an old tab that opens a screen it has not
 * loaded yet gets "Failed to fetch dynamically imported module". The cure is to load the app again, once. Hand-written
 * (about 40 lines) because the part that matters is the guard around the reload, which no library of the router or of
 * Vite offers: Vite's `vite:preloadError` event only reports the failure.
 *
 * - The server answers (a probe of `/`): the tab is stale. Reload, unless this tab already reloaded for this reason
 *   a moment ago (sessionStorage, per tab): then the failure is not staleness, and the screen says so with a Reload
 *   button rather than looping.
 * - Offline, or the server does not answer: reloading would only show the browser's own error page; the screen says
 *   what happened instead.
 */

const RELOADED_AT = 'fulcrum.reloadedForStaleCode';
/** A second failure within this time of the automatic reload is not a stale tab: show the message, do not reload. */
const RELOAD_GUARD_MS = 30_000;

export type ChunkProblem = 'offline' | 'unreachable' | 'stale';

/** The code of a screen could not be loaded; `problem` says why, for the error screen (RouteError). */
export class ChunkLoadError extends Error {
  constructor(
    readonly problem: ChunkProblem,
    options: { cause: unknown },
  ) {
    super(`The code of this screen could not be loaded (${problem})`, options);
    this.name = 'ChunkLoadError';
  }
}

async function serverAnswers(): Promise<boolean> {
  try {
    return (await fetch('/', { method: 'HEAD', cache: 'no-store' })).ok;
  } catch {
    return false;
  }
}

/** Records the reload and says whether it may happen (false when one happened a moment ago, or storage is off). */
function claimReload(): boolean {
  try {
    const last = Number(sessionStorage.getItem(RELOADED_AT));
    if (last && Date.now() - last < RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    return true;
  } catch {
    return false;
  }
}

/** Where the app is going: a screen's code loads before the router moves the address there. */
interface Destination {
  pathname: string;
  search: string;
  hash: string;
}

/**
 * Loads a chunk; on failure loads the app again once (stale tab), at `destination()` when a navigation is under
 * way (else the current address), or throws a ChunkLoadError saying why.
 */
export async function loadChunk<T>(load: () => Promise<T>, destination: () => Destination | undefined = () => undefined): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    console.error(cause);
    if (!navigator.onLine) throw new ChunkLoadError('offline', { cause });
    if (!(await serverAnswers())) throw new ChunkLoadError('unreachable', { cause });
    if (claimReload()) {
      const to = destination();
      if (to) window.location.assign(to.pathname + to.search + to.hash);
      else window.location.reload();
      // The page goes away: never settle, so nothing renders an error in the meantime.
      return new Promise<T>(() => {});
    }
    throw new ChunkLoadError('stale', { cause });
  }
}
