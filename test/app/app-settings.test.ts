/**
 * One file although long: every form of the settings page, each with its bounds and refusals, its
 * roles and forged posts, and the usage after real sends, share one stack and its companies.
 *
 * The application's settings page over the real stack: owners and administrators change the
 * brand, upload and remove the logo, see the e-mail preview built by the code that sends, set the
 * embedding origins, and read the period's usage after real sends, one refused for quota. A form
 * with a mistake comes back 422 and changes nothing; other roles are refused on the page and on a
 * forged post; every change is audited as the user's; the session's company is the only one touched.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../src/data/schema.js';
import { getBrand } from '../../src/domain/companies/brand.js';
import { getEmbedding } from '../../src/domain/companies/embedding.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { MAX_LOGO_BYTES } from '../../src/lib/brand-logo.js';
import { appClient, formTokenIn, freshEmail, signIn } from '../support/app-client.js';
import { asOperator, createTestCompany, createTestTemplate, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { type Answer, call } from '../support/http.js';
import { gifLogo, logoPng, svgLogo } from '../support/logo-images.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
let other: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  [company, other] = [await createTestCompany(stack), await createTestCompany(stack)];
});
afterAll(() => stack.close());

type Role = 'owner' | 'admin' | 'member' | 'viewer';

async function signedIn(role: Role, companyId = company.id) {
  const email = freshEmail(role);
  await putUser(asOperator(stack, companyId), { email, input: { name: `Pat ${role}`, role, active: true, esign_seat: true } });
  const client = appClient(stack);
  expect((await signIn(stack, client, email)).status).toBe(303);
  return { email, client };
}

const brandOf = (companyId = company.id) => getBrand({ ...asOperator(stack, companyId) });
const originsOf = async (companyId = company.id) => (await getEmbedding({ ...asOperator(stack, companyId) })).allowed_origins;
const auditOf = (companyId: string, kind: 'settings.brand_changed' | 'settings.embedding_changed') =>
  stack.services.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.companyId, companyId), eq(auditEvents.kind, kind)));

const brandFields = { display_name: 'Acme Signing', accent_color: '#0b7a53', default_email_message: 'Please sign.\r\nThank you.', language: 'de' };

/** A multipart post of a logo file from the settings page last shown to `client`. */
async function postLogo(client: ReturnType<typeof appClient>, bytes: Uint8Array | null, type = 'image/png'): Promise<Answer<string>> {
  const page = await client.get('/app/settings');
  const form = new FormData();
  form.append('form_token', formTokenIn(page.body));
  if (bytes) form.append('logo', new Blob([new Uint8Array(bytes)], { type }), 'logo.png');
  const cookie = [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  return call<string>(stack, 'POST', '/app/settings/logo', {
    rawBody: form,
    headers: { cookie, origin: new URL(BASE_URL).origin, 'sec-fetch-site': 'same-origin', 'x-test-client-ip': '198.51.100.77' },
  });
}

describe('the settings page', () => {
  it('shows the owner the brand, logo, preview, origins and usage, and frames the preview under policies of their own', async () => {
    const owner = await signedIn('owner');
    const home = await owner.client.get('/app');
    expect(home.body).toContain('href="/app/settings"');
    const page = await owner.client.get('/app/settings');
    expect(page.status).toBe(200);
    for (const action of ['/app/settings/brand', '/app/settings/logo', '/app/settings/embedding']) expect(page.body).toContain(`action="${action}"`);
    expect(page.body).toContain('enctype="multipart/form-data"');
    expect(page.body).toMatch(/<iframe class="email-preview" src="\/app\/settings\/email-preview" title="[^"]+" sandbox/);
    expect(page.headers.get('content-security-policy')).toContain("frame-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const preview = await owner.client.get('/app/settings/email-preview');
    expect(preview.status).toBe(200);
    const policy = preview.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("style-src 'unsafe-inline'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toMatch(/; sandbox$/);
    expect(policy).not.toContain('script-src');
    expect(preview.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(preview.headers.get('cache-control')).toBe('no-store');
    expect(preview.body).toContain(company.name);
  });

  it('saves the brand, audits it as the user, and the preview is the e-mail a send makes with it', async () => {
    const owner = await signedIn('owner');
    await owner.client.get('/app/settings');
    const saved = await owner.client.post('/app/settings/brand', brandFields);
    expect([saved.status, saved.headers.get('location')]).toEqual([303, '/app/settings?saved=brand']);
    expect(await brandOf()).toMatchObject({
      display_name: 'Acme Signing',
      accent_color: '#0b7a53',
      default_email_message: 'Please sign.\nThank you.',
      language: 'de',
    });
    const [row] = await auditOf(company.id, 'settings.brand_changed');
    expect(row).toMatchObject({ actorType: 'user', data: { fields: ['display_name', 'accent_color', 'default_email_message', 'language'] } });
    const page = await owner.client.get('/app/settings?saved=brand');
    expect(page.body).toContain('role="status"');
    expect(page.body).toContain('value="Acme Signing"');
    expect(page.body).toContain('value="#0b7a53"');
    expect(page.body).toMatch(/<option value="de" lang="de" selected>/);
    const preview = await owner.client.get('/app/settings/email-preview');
    expect(preview.body).toContain('Acme Signing');
    expect(preview.body).toContain('background:#0b7a53');
    expect(preview.body).toContain('lang="de"');
    expect(preview.body).toContain('Please sign.<br>Thank you.');

    // Empty fields clear their settings: the company's name and the service's colour again.
    await owner.client.get('/app/settings');
    await owner.client.post('/app/settings/brand', { display_name: '', accent_color: '', default_email_message: '', language: '' });
    expect(await brandOf()).toMatchObject({ display_name: null, accent_color: null, default_email_message: null, language: null });
    expect((await owner.client.get('/app/settings/email-preview')).body).toContain(company.name);
  });

  it('takes a display name of 100 characters and a message of 5000, and refuses one past either (422, nothing changed)', async () => {
    const admin = await signedIn('admin');
    await admin.client.get('/app/settings');
    const atBounds = { ...brandFields, display_name: 'n'.repeat(100), default_email_message: 'm'.repeat(5000) };
    expect((await admin.client.post('/app/settings/brand', atBounds)).status).toBe(303);
    const before = await brandOf();
    const audited = (await auditOf(company.id, 'settings.brand_changed')).length;
    const refusals: [Record<string, string>, string][] = [
      [{ display_name: 'n'.repeat(101) }, 'display_name-error'],
      [{ display_name: 'Two\nlines' }, 'display_name-error'],
      [{ default_email_message: 'm'.repeat(5001) }, 'default_email_message-error'],
      [{ default_email_message: 'bell\u0007' }, 'default_email_message-error'],
      [{ accent_color: 'green' }, 'accent_color-error'],
      [{ accent_color: '#12345' }, 'accent_color-error'],
      [{ language: 'xx' }, 'language-error'],
    ];
    for (const [fields, error] of refusals) {
      await admin.client.get('/app/settings');
      const answer = await admin.client.post('/app/settings/brand', { ...brandFields, ...fields });
      expect(answer.status, JSON.stringify(fields)).toBe(422);
      expect(answer.body).toContain(`id="${error}"`);
      expect(answer.body).toContain('aria-invalid="true"');
    }
    expect(await brandOf()).toEqual(before);
    expect(await auditOf(company.id, 'settings.brand_changed')).toHaveLength(audited);
  });

  it('uploads a PNG logo (redrawn), shows it, puts it in the preview, and removes it', async () => {
    const owner = await signedIn('owner');
    const uploaded = await postLogo(owner.client, logoPng(40, 20));
    expect([uploaded.status, uploaded.headers.get('location')]).toEqual([303, '/app/settings?saved=logo']);
    const brand = await brandOf();
    expect(brand.logo?.type).toBe('image/png');
    const page = await owner.client.get('/app/settings');
    expect(page.body).toContain(`src="${brand.logo!.url}"`);
    expect((await owner.client.get('/app/settings/email-preview')).body).toContain(brand.logo!.url);
    const served = await call(stack, 'GET', new URL(brand.logo!.url).pathname);
    expect(served.status).toBe(200);

    await owner.client.get('/app/settings');
    const removed = await owner.client.post('/app/settings/logo/remove');
    expect([removed.status, removed.headers.get('location')]).toEqual([303, '/app/settings?saved=logoRemoved']);
    expect((await brandOf()).logo).toBeNull();
  });

  it('takes a logo of exactly the byte limit and refuses one a byte past it, an SVG, a GIF or no file (422, logo unchanged)', async () => {
    const owner = await signedIn('owner');
    expect((await postLogo(owner.client, logoPng(40, 20, MAX_LOGO_BYTES))).status).toBe(303);
    const before = await brandOf();
    for (const [bytes, type] of [
      [logoPng(40, 20, MAX_LOGO_BYTES + 1), 'image/png'],
      [svgLogo, 'image/svg+xml'],
      [gifLogo, 'image/gif'],
      [logoPng(1025, 10), 'image/png'],
      [null, 'image/png'],
    ] as const) {
      const answer = await postLogo(owner.client, bytes, type);
      expect(answer.status).toBe(422);
      expect(answer.body).toContain('id="logo-error"');
    }
    expect(await brandOf()).toEqual(before);
  });

  it('answers 413 to a logo post far past the logo limit, and other forms keep the 64 KiB limit', async () => {
    const owner = await signedIn('owner');
    const before = await brandOf();
    const huge = await postLogo(owner.client, logoPng(40, 20, MAX_LOGO_BYTES + 64 * 1024));
    expect(huge.status).toBe(413);
    await owner.client.get('/app/settings');
    const longForm = await owner.client.post('/app/settings/brand', { ...brandFields, default_email_message: 'm'.repeat(70 * 1024) });
    expect(longForm.status).toBe(413);
    expect(await brandOf()).toEqual(before);
  });

  it('saves the embedding origins one per line, in their one spelling, and audits them', async () => {
    const owner = await signedIn('owner');
    await owner.client.get('/app/settings');
    const saved = await owner.client.post('/app/settings/embedding', { allowed_origins: 'https://App.Example.com/\r\n\r\nhttps://portal.example.org:8443' });
    expect([saved.status, saved.headers.get('location')]).toEqual([303, '/app/settings?saved=embedding']);
    expect(await originsOf()).toEqual(['https://app.example.com', 'https://portal.example.org:8443']);
    const [row] = await auditOf(company.id, 'settings.embedding_changed');
    expect(row).toMatchObject({ actorType: 'user', data: { allowed_origins: ['https://app.example.com', 'https://portal.example.org:8443'] } });
    const page = await owner.client.get('/app/settings');
    expect(page.body).toContain('https://app.example.com\nhttps://portal.example.org:8443</textarea>');

    const ten = Array.from({ length: 10 }, (_, at) => `https://site${at}.example.com`);
    expect((await owner.client.post('/app/settings/embedding', { allowed_origins: ten.join('\n') })).status).toBe(303);
    expect(await originsOf()).toEqual(ten);
    await owner.client.get('/app/settings');
    expect((await owner.client.post('/app/settings/embedding', { allowed_origins: '' })).status).toBe(303);
    expect(await originsOf()).toEqual([]);
  });

  it('refuses a bad origin, a duplicate or eleven origins with the field marked (422), the list unchanged', async () => {
    const owner = await signedIn('owner');
    await owner.client.get('/app/settings');
    await owner.client.post('/app/settings/embedding', { allowed_origins: 'https://kept.example.com' });
    const audited = (await auditOf(company.id, 'settings.embedding_changed')).length;
    const eleven = Array.from({ length: 11 }, (_, at) => `https://site${at}.example.com`).join('\n');
    for (const text of [
      'https://ok.example.com\nftp://files.example.com',
      'https://app.example.com/path',
      'https://*.example.com',
      'http://app.example.com',
      'https://a.example.com\nhttps://A.example.com',
      eleven,
    ]) {
      await owner.client.get('/app/settings');
      const answer = await owner.client.post('/app/settings/embedding', { allowed_origins: text });
      expect(answer.status, text).toBe(422);
      expect(answer.body).toContain('id="allowed_origins-error"');
    }
    expect(await originsOf()).toEqual(['https://kept.example.com']);
    expect(await auditOf(company.id, 'settings.embedding_changed')).toHaveLength(audited);
  });

  it('refuses members and viewers the page, the preview and every forged post (403), changing nothing', async () => {
    const before = { brand: await brandOf(), origins: await originsOf() };
    for (const role of ['member', 'viewer'] as const) {
      const who = await signedIn(role);
      const home = await who.client.get('/app');
      expect(home.body).not.toContain('href="/app/settings"');
      for (const path of ['/app/settings', '/app/settings/email-preview']) expect((await who.client.get(path)).status, `${role} ${path}`).toBe(403);
      await who.client.get('/app');
      expect((await who.client.post('/app/settings/brand', brandFields)).status).toBe(403);
      expect((await who.client.post('/app/settings/embedding', { allowed_origins: 'https://evil.example.com' })).status).toBe(403);
      expect((await who.client.post('/app/settings/logo/remove')).status).toBe(403);
      expect((await postLogo(who.client, logoPng())).status).toBe(403);
    }
    expect({ brand: await brandOf(), origins: await originsOf() }).toEqual(before);
  });

  it('refuses a post without its form token or from another site (403), and sends the signed-out to sign in', async () => {
    const owner = await signedIn('owner');
    const before = await brandOf();
    await owner.client.get('/app/settings');
    expect((await owner.client.post('/app/settings/brand', { ...brandFields, form_token: 'forged' })).status).toBe(403);
    await owner.client.get('/app/settings');
    const crossSite = await owner.client.post('/app/settings/brand', brandFields, { origin: 'https://evil.example.com', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(await brandOf()).toEqual(before);
    const stranger = appClient(stack);
    const answer = await stranger.get('/app/settings');
    expect([answer.status, answer.headers.get('location')]).toEqual([303, '/app']);
  });

  it("changes only the session's company, whatever a post names", async () => {
    const owner = await signedIn('owner');
    const theirs = { brand: await brandOf(other.id), origins: await originsOf(other.id) };
    await owner.client.get('/app/settings');
    await owner.client.post('/app/settings/brand', { ...brandFields, company_id: other.id, display_name: 'Not theirs' });
    await owner.client.get('/app/settings');
    await owner.client.post('/app/settings/embedding', { company_id: other.id, allowed_origins: 'https://mine.example.com' });
    expect({ brand: await brandOf(other.id), origins: await originsOf(other.id) }).toEqual(theirs);
    expect((await brandOf()).display_name).toBe('Not theirs');
    expect(await auditOf(other.id, 'settings.brand_changed')).toHaveLength(0);
  });
});

describe('the usage', () => {
  it("shows the period's sends of the allowance, when it renews, and a send refused for quota", async () => {
    const small = await createTestCompany(stack, { quota: 2 });
    const owner = await signedIn('owner', small.id);
    await sendTestEnvelope(stack, small);
    await sendTestEnvelope(stack, small);
    const { id: templateId } = await createTestTemplate(stack, small.id, { signing_order: 'parallel' });
    const refused = await call(stack, 'POST', '/v1/envelopes/from-template', {
      token: small.owner.token,
      body: {
        template_id: templateId,
        recipients: [
          { role: 'Client', name: 'Cleo Client', email: freshEmail('cleo') },
          { role: 'Witness', name: 'Walt Witness', email: freshEmail('walt') },
        ],
      },
    });
    expect(refused.status).toBe(402);
    const page = await owner.client.get('/app/settings');
    expect(page.body).toMatch(/id="usage-used">2 of 2</);
    expect(page.body).toMatch(/id="usage-left">0</);
    expect(page.body).toMatch(/id="usage-refused-quota">1</);
    expect(page.body).toMatch(/id="usage-refused-rate">0</);
    const now = stack.services.clock.now();
    const renews = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(page.body).toContain(`<time datetime="${renews}">`);
  });
});
