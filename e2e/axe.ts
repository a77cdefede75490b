/**
 * axe-core (from npm) run inside the page under test. The source is evaluated through the DevTools protocol
 * (page.evaluate), so the app's Content-Security-Policy, which refuses inline scripts, needs no exception.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** WCAG 2.1 level A and AA: the accessibility bar of every screen. */
export const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the failing elements, with axe's summary of what is wrong. */
  nodes: string[];
}

/** Runs axe on the whole document as it is now (open modals and menus included) and returns every violation. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async (tags) => {
    const runner = (window as unknown as { axe: typeof axe }).axe;
    const results = await runner.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`.trim()),
    }));
  }, WCAG21_AA);
}

/** The violations that fail the suite: serious and critical. */
export function blocking(violations: readonly AxeViolation[]): AxeViolation[] {
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
