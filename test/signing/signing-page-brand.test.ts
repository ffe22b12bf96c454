/**
 * The signing page wears the brand of the company that sent the envelope: its logo and display
 * name in the header, its accent colour from a stylesheet of the service's own (the page allows no
 * inline style), on every page of a genuine link; an invalid link shows only the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putBrand } from '../../src/domain/companies/brand.js';
import { companyContext } from '../../src/domain/verb-context.js';
import { declineAsRecipient } from '../../src/domain/signing/decline-as-recipient.js';
import { createTestCompany, sendTestEnvelope } from '../support/factories.js';
import { logoPng } from '../support/logo-images.js';
import { openStack, type TestStack } from '../support/stack.js';
import { bySigner } from '../support/signer-verbs.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const page = async (token: string) => {
  const response = await stack.app.request(`/sign/${token}`, { headers: { 'x-test-client-ip': `brand-${crypto.randomUUID()}` } });
  return { status: response.status, html: await response.text(), csp: response.headers.get('content-security-policy') ?? '' };
};
const header = (html: string) => /<header[\s\S]*?<\/header>/.exec(html)?.[0] ?? '';

describe('the brand on the signing page', () => {
  it('shows the logo, the escaped display name and the accent stylesheet, all from the page’s own origin', async () => {
    const company = await createTestCompany(stack);
    const brand = await putBrand(companyContext(stack.services, { kind: 'operator' }, company.id), {
      display_name: '<b>Acme</b> & "Sons"',
      logo: logoPng(),
      accent_color: '#0B7A53',
    });
    const { links } = await sendTestEnvelope(stack, company);
    const shown = await page(links[0]!.token);
    expect(shown.status).toBe(200);
    const logoPath = new URL(brand.logo!.url).pathname;
    expect(header(shown.html)).toContain('<header class="site-header branded">');
    expect(header(shown.html)).toContain(`<img class="brand-logo" src="${logoPath}" alt="" height="32">`);
    expect(header(shown.html)).toContain('<span class="brand-name">&lt;b&gt;Acme&lt;/b&gt; &amp; &quot;Sons&quot;</span>');
    expect(shown.html).toContain('<link rel="stylesheet" href="/brand/accent/0b7a53.css">');
    expect(shown.html).not.toContain('<b>Acme</b>');
    // The page's policy takes its own images and styles only: both are.
    expect(shown.csp).toContain("img-src 'self'");
    expect(shown.csp).toContain("style-src 'self'");
    expect((await stack.app.request(logoPath)).status).toBe(200);
    expect(await (await stack.app.request('/brand/accent/0b7a53.css')).text()).toContain('--brand-accent: #0b7a53');

    // The pages after signing or declining wear it too.
    await bySigner(stack.services, { ip: '198.51.100.7', userAgent: null }, declineAsRecipient, { token: links[0]!.token, reason: 'Not today' });
    expect(header((await page(links[0]!.token)).html)).toContain('<span class="brand-name">&lt;b&gt;Acme&lt;/b&gt;');
  });

  it("shows the company's name, in the page's own colours, for a company without a brand", async () => {
    const company = await createTestCompany(stack);
    const { links } = await sendTestEnvelope(stack, company);
    const shown = await page(links[0]!.token);
    expect(header(shown.html)).toContain(`<span class="brand-name">${company.name}</span>`);
    expect(header(shown.html)).not.toContain('<img');
    expect(shown.html).not.toContain('/brand/accent/');
  });

  it('shows no company on the page of an invalid link', async () => {
    const company = await createTestCompany(stack);
    await putBrand(companyContext(stack.services, { kind: 'operator' }, company.id), { display_name: 'Hidden Co' });
    const { links } = await sendTestEnvelope(stack, company);
    const forged = `${links[0]!.token.split('.')[0]}.${'A'.repeat(43)}`;
    const shown = await page(forged);
    expect(shown.status).toBe(404);
    expect(shown.html).not.toContain('Hidden Co');
    expect(header(shown.html)).not.toContain('branded');
  });
});
