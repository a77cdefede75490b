/** The bench's table: its rows, their formatting, and the block it writes into docs/performance.md. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_BUILD, HAS_TASKSET, ROOT, type LoadResult } from './lib.js';
import type { ProfileSummary } from './profile.js';

export interface Row {
  scenario: string;
  rps?: number;
  p50?: number;
  p99?: number;
  ratio?: number;
  /** Free text for rows that are not throughput (sizes, memory, start time). */
  value?: string;
  budget: string;
  met: boolean | null;
  note?: string;
}

/** One step of the cost ladder: a sequential latency of an ever larger slice of the stack. */
export interface LadderStep {
  step: string;
  p50: number;
  p99: number;
}

export const fmt = (n: number | undefined, digits = 1) =>
  n === undefined || Number.isNaN(n) ? '—' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const fmtInt = (n: number | undefined) => (n === undefined ? '—' : Math.round(n).toLocaleString('en-US'));

interface Report {
  rows: Row[];
  ladder: LadderStep[];
  notes: string[];
  /** The baseline at 50 connections and on 1 connection. */
  baseline: LoadResult;
  baseline1: LoadResult;
  profile?: ProfileSummary;
  seconds: number;
  /** The scenarios run, when BENCH_ONLY chose them. */
  only: Set<number> | null;
  loadAtStart: number;
}

export function render(report: Report): string {
  const { rows, ladder, notes, baseline, baseline1, profile, seconds, only, loadAtStart } = report;
  const lines: string[] = [];
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  lines.push(
    `Measured ${when} on ${cpus().length} cores (${cpus()[0]?.model?.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB), Node ${process.version}, ` +
      `gateway ${GATEWAY_BUILD === 'bundle' ? "compiled as `npm start`'s bundle (gateway/bundle.mjs), run by plain node" : 'under tsx (BENCH_GATEWAY=tsx)'} with NODE_ENV=production, ` +
      `${HAS_TASKSET ? 'pinned to core 0 and load to core 1 with taskset' : 'no taskset: unpinned'}; autocannon, ${seconds} s per run after a 2 s warm-up, 50 connections unless stated. ` +
      `Baseline: ${fmtInt(baseline.rps)} req/s at 50 connections, ${fmtInt(baseline1.rps)} req/s (p50 ${baseline1.p50.toFixed(2)} ms) on 1 connection, one request at a time.`,
  );
  lines.push(
    `\nOther work on the machine: 1-minute load average ${loadAtStart.toFixed(1)} at the start of the run and ${loadavg()[0].toFixed(1)} at the end (${cpus().length} cores; above ${cpus().length} every figure here is slowed by neighbours).`,
  );
  if (only) lines.push(`\nOnly scenarios ${[...only].join(', ')} were run (BENCH_ONLY).`);
  lines.push('');
  lines.push('| Scenario | req/s (median) | p50 ms | p99 ms | ratio to baseline | result | budget | met |');
  lines.push('|---|---:|---:|---:|---:|---|---|:-:|');
  for (const r of rows) {
    const result = [r.value, r.note].filter(Boolean).join('; ');
    const met = r.met === null ? '' : r.met ? 'yes' : '**no**';
    lines.push(
      `| ${r.scenario} | ${r.rps === undefined ? '' : fmtInt(r.rps)} | ${r.p50 === undefined ? '' : fmt(r.p50, r.p50 < 10 ? 2 : 1)} | ${r.p99 === undefined ? '' : fmt(r.p99, r.p99 < 10 ? 2 : 1)} | ${r.ratio === undefined ? '' : r.ratio === 1 ? '1' : r.ratio.toFixed(3)} | ${result} | ${r.budget} | ${met} |`,
    );
  }
  if (ladder.length) {
    lines.push('');
    lines.push("Where a request's time goes: one connection, one request at a time (same run, same cores), each step adding a layer:");
    lines.push('');
    lines.push('| step | p50 ms | p99 ms | p50 added by this layer |');
    lines.push('|---|---:|---:|---:|');
    ladder.forEach((l, i) =>
      lines.push(`| ${l.step} | ${l.p50.toFixed(2)} | ${l.p99.toFixed(2)} | ${i === 0 ? '' : (l.p50 - ladder[i - 1].p50).toFixed(2)} |`),
    );
  }
  if (notes.length) {
    lines.push('');
    for (const n of notes) lines.push(`- ${n}`);
  }
  if (profile) {
    lines.push('');
    lines.push(
      `CPU profile of the gateway under ${profile.target ?? 'the dashboard load'} (V8 CPU profiler as in \`node --cpu-prof\`, started over IPC for the load only: ${profile.busySamples.toLocaleString('en-US')} busy samples, idle ${(profile.idleShare * 100).toFixed(0)}%), self time:`,
    );
    lines.push('');
    lines.push('| by package | share | | by function | share |');
    lines.push('|---|---:|---|---|---:|');
    for (let i = 0; i < Math.max(profile.packages.length, profile.functions.length); i++) {
      const p = profile.packages[i];
      const f = profile.functions[i];
      lines.push(
        `| ${p ? p.name : ''} | ${p ? (p.share * 100).toFixed(1) + '%' : ''} | | ${f ? '`' + f.name.replace(/\|/g, '\\|') + '`' : ''} | ${f ? (f.share * 100).toFixed(1) + '%' : ''} |`,
      );
    }
  }
  return lines.join('\n');
}

const START = '<!-- bench:start (written by `npm run bench`; edit outside these markers) -->';
const END = '<!-- bench:end -->';

/** Replaces the block between the bench markers of docs/performance.md (or appends one). */
export function writeDoc(report: string) {
  const file = join(ROOT, 'docs/performance.md');
  const block = `${START}\n${report}\n${END}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n\nThe latest `npm run bench`:\n\n';
  const a = text.indexOf(START.slice(0, 20));
  const b = text.indexOf(END);
  text = a >= 0 && b > a ? text.slice(0, a) + block + text.slice(b + END.length) : `${text.trimEnd()}\n\n${block}\n`;
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  writeFileSync(file, text);
}
