/** Small figures for the tests and the bench: percentiles, medians, a pause, and one printed figure. */

/** The nearest-rank percentile (p in 0..100) of a sample; NaN for none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The median (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Prints one measured figure; docs/security.md and docs/deployment.md quote them with the command that reproduces them. */
export function figure(name: string, value: string | number): void {
  console.log(`[figure] ${name}: ${value}`);
}
