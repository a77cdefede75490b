/**
 * One copy of every library in the bundle `npm start` runs. esbuild inlines the npm packages once; a package our code
 * loads at run time instead (createRequire(import.meta.url)('…'), which esbuild cannot follow) comes from
 * node_modules beside the inlined copy. For graphql that second copy breaks every check across the two ("Cannot use
 * GraphQLObjectType from another module or realm"): the cost model priced every operation 0 in the bundle while the
 * sources, which the other suites run, priced correctly. Read from the built bundle, whose modules esbuild marks
 * with `// node_modules/<package>/<file>` lines; the started bundle's pricing is checked by bundle.test.ts and the
 * limit suites (apiTokens/publishedLimits, apiTokens/bundleCost, security/graphqlLimits).
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureGatewayBundle } from '../bundle.mjs';
import { figure } from '../src/testing/measure.js';

/** The package a bare specifier names (`@scope/name/deep` → `@scope/name`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The files esbuild inlined, as `node_modules/…` paths (nested copies keep their full path). */
export function inlinedFiles(bundle: string): string[] {
  return [...new Set([...bundle.matchAll(/^\/\/ ((?:[\w@.+-]+\/)*node_modules\/\S+)$/gm)].map((m) => m[1]))];
}

/** Bare specifiers the bundle loads at run time: esbuild's `__require("x")` and any `createRequire(…)("x")`. */
export function runtimeLoads(bundle: string): string[] {
  const loads = [
    ...[...bundle.matchAll(/\b__require\(\s*["']([^"'./][^"']*)["']\s*\)/g)].map((m) => m[1]),
    ...[...bundle.matchAll(/\bcreateRequire\d*\([^()]*(?:\([^()]*\))?[^()]*\)\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]),
  ];
  const builtins = new Set(builtinModules);
  return [...new Set(loads)].filter((s) => !s.startsWith('node:') && !builtins.has(packageOf(s)));
}

let bundle: string;
beforeAll(async () => {
  bundle = readFileSync(await ensureGatewayBundle(), 'utf8');
}, 120_000);

describe('the gateway bundle holds one copy of every library', () => {
  it('loads no inlined package again at run time (only native addons and optional packages stay outside)', () => {
    const inlined = new Set(inlinedFiles(bundle).map((file) => packageOf(file.slice(file.lastIndexOf('node_modules/') + 'node_modules/'.length))));
    expect(inlined.size).toBeGreaterThan(100);
    const loads = runtimeLoads(bundle);
    expect(loads).toContain('better-sqlite3'); // the native addon, left external on purpose
    expect(loads.filter((specifier) => inlined.has(packageOf(specifier)))).toEqual([]);
    figure('bundle run-time loads', `${loads.length} bare specifiers loaded at run time, none of the ${inlined.size} inlined packages`);
  });

  it('inlines graphql once, as the CommonJS files Node loads (never its .mjs twin)', () => {
    const files = inlinedFiles(bundle);
    const graphql = files.filter((file) => file.startsWith('node_modules/graphql/'));
    expect(graphql.length).toBeGreaterThan(50);
    expect(graphql.filter((file) => !file.endsWith('.js'))).toEqual([]);
    expect(files.filter((file) => /(^|\/)node_modules\/graphql\//.test(file) && !file.startsWith('node_modules/graphql/'))).toEqual([]);
    // The cost model's library: its CommonJS build, which requires that one graphql (its ESM build imports the .mjs files).
    const complexity = files.filter((file) => file.startsWith('node_modules/graphql-query-complexity/'));
    expect(complexity.length).toBeGreaterThan(0);
    expect(complexity.filter((file) => !file.startsWith('node_modules/graphql-query-complexity/dist/cjs/'))).toEqual([]);
  });
});
