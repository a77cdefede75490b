/** The real server (`gateway/src/main.ts`, what `npm start` runs) as a child process, for kill and drain tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * main.ts compiled once with esbuild (the transform tsx applies file by file), our two workspaces inlined and
 * every npm dependency left external. It starts in about 1 s instead of about 2.5 s under tsx, which is what
 * lets the crash test restart the server 20 times in its time budget. Written under node_modules/.cache so
 * the bare imports resolve.
 */
export async function bundleServer(): Promise<string> {
  const { build } = await import('esbuild');
  const deps = (file: string) => Object.keys(JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8')).dependencies ?? {});
  const external = [...deps('gateway/package.json'), ...deps('schema/package.json')].filter((d) => d !== '@fulcrum/schema').flatMap((d) => [d, `${d}/*`]);
  const dir = join(REPO_ROOT, 'node_modules', '.cache', `fulcrum-server-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'main.mjs');
  await build({ entryPoints: [join(REPO_ROOT, 'gateway/src/main.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', external, outfile, tsconfig: join(REPO_ROOT, 'tsconfig.json'), logLevel: 'error' });
  return outfile;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed (stdout and stderr). */
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node --import tsx gateway/src/main.ts` (or a bundle from bundleServer) and waits for it to listen. */
export async function startServerProcess(env: Record<string, string | undefined>, options: { preload?: string; bundle?: string; timeoutMs?: number } = {}): Promise<ServerProcess> {
  const args = options.bundle
    ? [...(options.preload ? ['--import', 'tsx', '--import', options.preload] : []), options.bundle]
    : ['--import', 'tsx', ...(options.preload ? ['--import', options.preload] : []), 'gateway/src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', FULCRUM_INTROSPECTION: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output.join('')}`)), options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      output.push(String(chunk));
      const match = /fulcrum listening on (http:\/\/\S+)/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => output.push(String(chunk)));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${output.join('')}`));
    });
  });
  return { url, child, output, exited };
}
