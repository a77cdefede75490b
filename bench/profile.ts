/** Reads a V8 .cpuprofile (node --cpu-prof) and names where the busy time went: by function and by package. */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface ProfileSummary {
  busySamples: number;
  idleShare: number;
  functions: { name: string; share: number }[];
  packages: { name: string; share: number }[];
  /** What was profiled, as the report names it ("the dashboard load"). */
  target?: string;
}

function packageOf(url: string): string {
  if (!url) return '(native / V8)';
  if (url.startsWith('node:')) return 'node core';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/(schema|gateway|bench)\/src\/|\/(bench)\//.exec(url);
  return m ? `fulcrum ${m[1] ?? m[2]}` : url.replace(/^file:\/\//, '');
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  const i = url.search(/\/(schema|gateway|bench)\//);
  return i >= 0 ? url.slice(i + 1) : url.replace(/^file:\/\//, '');
}

/**
 * The module a line of an esbuild bundle came from: esbuild writes `// node_modules/express/index.js` (or
 * `// gateway/src/app.ts`) above each module it inlines, so a frame of the bundle is named after its source module
 * and package as it was under tsx.
 */
const bundleModules = new Map<string, { line: number; path: string }[]>();
function modulesOf(url: string): { line: number; path: string }[] {
  let modules = bundleModules.get(url);
  if (!modules) {
    modules = [];
    const lines = readFileSync(new URL(url), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^\/\/ ((?:node_modules|gateway|schema|bench)\/\S+\.[cm]?[jt]s)$/.exec(lines[i]);
      if (m) modules.push({ line: i, path: m[1] });
    }
    bundleModules.set(url, modules);
  }
  return modules;
}
function sourceOf(url: string, lineNumber: number): string {
  if (!url.startsWith('file://') || !url.endsWith('.mjs') || url.includes('/node_modules/')) return url;
  const modules = modulesOf(url);
  let lo = 0;
  let hi = modules.length - 1;
  let found: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (modules[mid].line <= lineNumber) {
      found = modules[mid].path;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found ? `/${found}` : url;
}

export function summarizeProfile(file: string, top = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
  let idle = 0;
  let busy = 0;
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  for (const [id, hits] of self) {
    const { functionName, url: frameUrl, lineNumber } = byId.get(id)!.callFrame;
    const url = sourceOf(frameUrl, lineNumber);
    if (functionName === '(idle)') {
      idle += hits;
      continue;
    }
    busy += hits;
    const name = url ? `${functionName || '(anonymous)'} ${shortUrl(url)}${url === frameUrl ? `:${lineNumber + 1}` : ''}` : functionName;
    functions.set(name, (functions.get(name) ?? 0) + hits);
    const pkg = functionName === '(garbage collector)' ? '(garbage collector)' : functionName === '(program)' ? '(program: V8/native)' : packageOf(url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + hits);
  }
  const sorted = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => ({ name, share: n / busy }));
  return { busySamples: busy, idleShare: idle / (idle + busy), functions: sorted(functions), packages: sorted(packages) };
}
