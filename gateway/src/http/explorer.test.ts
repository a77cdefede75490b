/**
 * /graphiql serves the explorer built from npm (web/explorer) under the gateway's CSP, with nothing loaded from
 * another origin: the page and every asset it names come from this gateway.
 */
import { describe, expect, it } from 'vitest';
import { useGatewayOnFreshBuild } from '../testing/freshBuild.js';

const fresh = useGatewayOnFreshBuild('explorer');

/** The CSP's directives as a map; every source must be this gateway's own (or inline data/blob for images, fonts). */
function directives(header: string | null): Map<string, string[]> {
  expect(header, 'a Content-Security-Policy header').toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
}

function expectStrictCsp(header: string | null, host: string): void {
  const csp = directives(header);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('style-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  for (const [name, sources] of csp) {
    for (const source of sources) {
      const own = source.startsWith("'") || source === 'data:' || source === 'blob:' || source === `ws://${host}` || source === `wss://${host}`;
      expect(own, `${name} ${source}`).toBe(true);
    }
  }
}

/** Anything that would make the browser fetch from another origin. */
const EXTERNAL = [
  /(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i,
  /url\(\s*["']?(?:https?:)?\/\//i,
  /@import\s+(?:url\()?\s*["']?(?:https?:)?\/\//i,
  /import\(\s*["'](?:https?:)?\/\//i,
  /importScripts\(\s*["'](?:https?:)?\/\//i,
];

describe('/graphiql', () => {
  it('serves its page and every asset from this gateway, each with the strict CSP and no external URL', async () => {
    const host = new URL(fresh.gateway().url).host;
    const page = await fetch(`${fresh.gateway().url}/graphiql`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expectStrictCsp(page.headers.get('content-security-policy'), host);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    for (const pattern of EXTERNAL) expect(html).not.toMatch(pattern);

    const assets = [...html.matchAll(/(?:src|href)="(\/graphiql\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    const queue = [...assets];
    const seen = new Set<string>();
    while (queue.length) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const res = await fetch(`${fresh.gateway().url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(path.endsWith('.css') ? /^text\/css/ : /javascript/);
      expect(res.headers.get('cache-control'), path).toContain('immutable');
      expectStrictCsp(res.headers.get('content-security-policy'), host);
      const body = await res.text();
      for (const pattern of EXTERNAL) expect(body, `${path} ${pattern}`).not.toMatch(pattern);
      // Follow the chunks a script imports (GraphiQL loads its editor add-ons lazily).
      for (const m of body.matchAll(/["'`]\.?\/?((?:graphiql\/assets\/)?[\w.-]+\.(?:js|css))["'`]/g))
        queue.push(`/graphiql/assets/${m[1].replace(/^graphiql\/assets\//, '')}`);
    }
    expect(seen.size).toBeGreaterThan(5);
  });

  it('an unknown asset is a plain 404, never the app page', async () => {
    const res = await fetch(`${fresh.gateway().url}/graphiql/assets/nope.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<div id="root">');
  });
});
