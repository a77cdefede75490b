/**
 * The gateway as one ES module: `gateway/src/main.ts` compiled by esbuild with our two workspaces and the npm
 * dependencies inlined. Plain node then starts it without the tsx loader, which compiles each of our files at
 * every start, and without resolving and reading the hundreds of files of the npm packages one by one: the first
 * answer on an existing DATA_DIR came after 1.94 s with the dependencies left external and 0.95 s inlined (median of
 * 7 alternated starts), and after about 3 s under tsx. Left external, resolved from node_modules at run time: native addons (their
 * `.node` binaries load by path) and optional packages that a dependency requires only if installed (knex's other
 * database drivers, ws's native helpers...), found by trying to resolve each bare import from where it is imported.
 * `npm start` (scripts/start.mjs), the bundle, scale-out, crash and drain tests and the bench all run this one bundle definition.
 * JavaScript, not TypeScript, so it runs before anything is compiled.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Same depth as gateway/src, so paths relative to a module (config.ts finds ../../web/dist) hold in the bundle. */
export const DEFAULT_BUNDLE = join(REPO_ROOT, 'gateway/dist/main.mjs');
// package-lock.json: the inlined dependencies change with it (an `npm ci` after a pull rebuilds the bundle).
const SOURCES = ['gateway/src', 'schema/src', 'gateway/package.json', 'schema/package.json', 'package-lock.json', 'tsconfig.json', 'gateway/bundle.mjs'];

/** Native addons: their compiled `.node` file is found relative to the package at run time. */
const NATIVE = ['better-sqlite3', 'argon2'];

/** Newest modification time under a file or folder (0 when missing). */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/**
 * esbuild plugin: a bare import that does not resolve from the importing file stays external (an optional
 * dependency its package loads in a try/catch, or never on our paths); node resolves it at run time as before.
 */
const optionalImports = {
  name: 'optional-imports',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || !args.resolveDir) return undefined;
      try {
        createRequire(join(args.resolveDir, 'noop.js')).resolve(args.path);
        return undefined;
      } catch {
        return { path: args.path, external: true };
      }
    });
  },
};

/**
 * Writes the bundle to `outfile` and returns its path. `entry` is main.ts but for the bench, whose gateway
 * (bench/server.ts: startGateway() plus its counters over IPC) is compiled by this same definition.
 */
export async function bundleGateway(outfile = DEFAULT_BUNDLE, entry = join(REPO_ROOT, 'gateway/src/main.ts')) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    // type-graphql and MikroORM name GraphQL types and entities after their classes; esbuild renames classes whose
    // names collide across modules (Ticket -> Ticket2) unless told to keep them (the bundle served Ticket2).
    keepNames: true,
    target: 'node20',
    external: NATIVE.flatMap((d) => [d, `${d}/*`]),
    plugins: [optionalImports],
    // The CommonJS packages inlined into an ES module still call require() and read __dirname/__filename.
    banner: {
      js: [
        "import { createRequire as __fulcrumRequire } from 'node:module';",
        "import { fileURLToPath as __fulcrumPath } from 'node:url';",
        "import { dirname as __fulcrumDir } from 'node:path';",
        'const require = __fulcrumRequire(import.meta.url);',
        'const __filename = __fulcrumPath(import.meta.url);',
        'const __dirname = __fulcrumDir(__filename);',
      ].join(' '),
    },
    outfile,
    write: false,
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
    logLevel: 'error',
  });
  // Written whole and renamed into place: a process starting the bundle meanwhile reads the old one or the new one,
  // never half of it (test processes and `npm start` may share the default bundle).
  mkdirSync(dirname(outfile), { recursive: true });
  const temporary = `${outfile}.${process.pid}.tmp`;
  writeFileSync(temporary, result.outputFiles[0].contents);
  renameSync(temporary, outfile);
  return outfile;
}

/** The default bundle, rebuilt only when a source is newer than it (a restart costs a stat walk, about 5 ms). */
export async function ensureGatewayBundle() {
  const builtAt = newestMtime(DEFAULT_BUNDLE);
  if (builtAt > Math.max(...SOURCES.map((s) => newestMtime(join(REPO_ROOT, s))))) return DEFAULT_BUNDLE;
  return bundleGateway(DEFAULT_BUNDLE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(await bundleGateway(process.argv[2] ?? DEFAULT_BUNDLE));
}
