/**
 * What the browser suites hold every page state to: no serious or critical violation that axe-core
 * finds, told as readable lines so that a failure says what and where.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations, passes } = await new AxeBuilder({ page }).analyze();
  // A check that ran: on any page of ours, axe-core finds rules that pass (lang, title…).
  expect(passes.map((rule) => rule.id)).toEqual(expect.arrayContaining(['html-has-lang', 'html-lang-valid', 'document-title']));
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
