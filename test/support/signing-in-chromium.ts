/**
 * A signer in Chromium and what comes of it, against a running server: where the signing page
 * draws a field's box over its rendered page (in PDF points, to compare with the template's
 * place), the link the signer is e-mailed, a signature typed and the form signed, and the finished PDF as the operator downloads it.
 */
import type { Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import { eventually } from './eventually.js';
import { type PdfWord, pdfWords } from './pdf-text.js';

export type Place = { x: number; y: number; width: number; height: number };

/**
 * The `index`th field box on page `number` of the signing page at `url`, once pdf.js has drawn the
 * page under it: its corner and size measured on the screen, scaled to the page's points.
 */
export async function fieldBoxInPoints(page: Page, url: string, number = 1, index = 0): Promise<Place> {
  await page.goto(url);
  const sheet = page.locator(`.page[data-page="${number}"]`);
  const canvas = sheet.locator('.page-canvas');
  await canvas.waitFor();
  const widthInPoints = Number(await sheet.getAttribute('data-width'));
  const drawn = (await canvas.boundingBox())!;
  const box = (await sheet.locator('.field-box').nth(index).boundingBox())!;
  const scale = drawn.width / widthInPoints;
  return { x: (box.x - drawn.x) / scale, y: (box.y - drawn.y) / scale, width: box.width / scale, height: box.height / scale };
}

/** Within `tolerance` points of `expected`, corner and size. */
export function expectPlace(actual: Place, expected: Place, tolerance = 1): void {
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    expect(Math.abs(actual[key] - expected[key]), `${key}: ${actual[key]} against ${expected[key]}`).toBeLessThanOrEqual(tolerance);
  }
}

/** The signer at `url` types their name as the signature, gives the consent and signs. */
export async function signWithTypedName(page: Page, url: string, name: string): Promise<void> {
  await page.goto(url);
  // Read first, as a person does: every page drawn, so that no fetch of the document is still
  // under way when the last signature completes the envelope (its document then answers 404
  // until the finished PDF is made).
  const pages = await page.locator('.page').count();
  await expect.poll(() => page.locator('.page .page-canvas').count(), eventually).toBe(pages);
  await page.getByLabel('Type your full name').fill(name);
  await page.getByLabel(/^I agree to sign this document electronically/).check();
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  // The last signer may already see the envelope finished.
  await page.getByRole('heading', { name: /^(You have signed|Everyone has signed)$/ }).waitFor();
}

type Mail = { to: { email: string }; text: string; tags?: Record<string, string> };

/** The signing link e-mailed to `email` for `envelopeId`, from the dev mailbox: it goes out after the send's answer. */
export function emailedSigningLink(base: string, envelopeId: string, email: string): Promise<string> {
  return vi.waitFor(async () => {
    const answer = await fetch(`${base}/dev/mailbox.json`);
    expect(answer.status).toBe(200);
    const mail = ((await answer.json()) as { data: Mail[] }).data.find(
      (entry) => entry.to.email === email && entry.tags?.kind === 'signing_request' && entry.tags.envelope_id === envelopeId,
    );
    const link = mail && /https?:\/\/\S+\/sign\/[A-Za-z0-9_.~-]+/.exec(mail.text)?.[0];
    if (!link) throw new Error(`No signing request has reached ${email} yet`);
    return link;
  }, eventually);
}

/** The finished PDF of `envelopeId` through the admin API, once the job after the last signature has made it (409 until then). */
export async function finishedPdf(base: string, adminToken: string, envelopeId: string): Promise<Uint8Array> {
  return vi.waitFor(
    async () => {
      const answer = await fetch(`${base}/admin/v1/envelopes/${envelopeId}/document`, { headers: { authorization: `Bearer ${adminToken}` } });
      if (answer.status !== 200) throw new Error(`The finished PDF answered ${answer.status}`);
      return new Uint8Array(await answer.arrayBuffer());
    },
    // A PDF job on a busy machine: far above what it takes, and ended as soon as it is there.
    { timeout: 60_000, interval: 250 },
  );
}

/** Whether a word `text` of page `number` lies inside `box` (within 1 pt): where a value was drawn. */
export function drawnInside(bytes: Uint8Array, number: number, text: string, box: Place): boolean {
  return pdfWords(bytes, number).some((word: PdfWord) => word.text === text && inside(word, box));
}

const inside = (word: PdfWord, box: Place) =>
  word.xMin >= box.x - 1 && word.xMax <= box.x + box.width + 1 && word.yMin >= box.y - 1 && word.yMax <= box.y + box.height + 1;
