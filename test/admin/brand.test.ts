/**
 * `PUT` and `GET /admin/v1/companies/{id}/brand`, and the logo at the address the brand gives:
 * what an operator sets is what e-mails and the signing page show, and nothing else is taken.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandSettings } from '../../src/data/schema.js';
import { MAX_LOGO_BYTES } from '../../src/lib/brand-logo.js';
import { call } from '../support/http.js';
import { canvasRows, encodePng, ihdr, pngChunk, pngFile } from '../support/png.js';
import { base64, firstScanAt, gifLogo, jpegStructure, logoJpeg, logoPng, svgLogo } from '../support/logo-images.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { admin, adminCompany } from './admin-support.js';
import { expectError } from '../support/expect-error.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const brandPath = (companyId: string) => `/admin/v1/companies/${companyId}/brand`;
const putBrand = (companyId: string, body: unknown) => admin(stack, 'PUT', brandPath(companyId), body);
const brandRow = async (companyId: string) => (await stack.services.database.db.select().from(brandSettings).where(eq(brandSettings.companyId, companyId)))[0]!;

/** The logo as a mail client fetches it: no credentials, from the address the brand gives. */
async function fetchLogo(url: string) {
  const response = await stack.app.request(url.replace(BASE_URL, ''));
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('PUT /admin/v1/companies/{id}/brand', () => {
  it('sets the display name, logo, accent colour and message, and GET reads them back with the logo address', async () => {
    const company = await adminCompany(stack);
    const answer = await putBrand(company.id, {
      display_name: 'Acme Legal',
      logo: base64(logoPng()),
      accent_color: '#0B7A53',
      default_email_message: 'Please sign.\nThanks!',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      company_id: company.id,
      display_name: 'Acme Legal',
      accent_color: '#0b7a53',
      default_email_message: 'Please sign.\nThanks!',
      language: null,
      logo: {
        type: 'image/png',
        url: expect.stringMatching(new RegExp(`^${BASE_URL}/brand/${company.id}/logo/[A-Za-z0-9_-]{32}$`)),
        bytes: expect.any(Number),
      },
    });
    expect((await admin(stack, 'GET', brandPath(company.id))).body).toEqual(answer.body);
    const row = await brandRow(company.id);
    expect(row).toMatchObject({ displayName: 'Acme Legal', accentColor: '#0b7a53', logoType: 'image/png', active: true });

    const logo = await fetchLogo(answer.body.logo.url);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(logo.headers.get('x-content-type-options')).toBe('nosniff');
    // The PNG kept is the service's own drawing of it: the same pixels, a file of its making.
    expect(Buffer.from(logo.bytes)).toEqual(Buffer.from(row.logo!));
    expect(answer.body.logo.bytes).toBe(logo.bytes.length);
    // Its digest, which the address is made from, is kept beside it, made by the database as it was written.
    expect(row.logoSha256).toBe(createHash('sha256').update(row.logo!).digest('hex'));
  });

  it('keeps the fields left out, clears those given as null, and the logo address changes with the logo', async () => {
    const company = await adminCompany(stack, { brand: { default_email_message: 'Kept message' } });
    const first = await putBrand(company.id, { display_name: 'First', logo: base64(logoPng(10, 10)), accent_color: '#112233' });
    const second = await putBrand(company.id, { accent_color: '#445566' });
    expect(second.body).toMatchObject({ display_name: 'First', accent_color: '#445566', default_email_message: 'Kept message', logo: first.body.logo });

    const third = await putBrand(company.id, { logo: base64(logoPng(12, 12)) });
    expect(third.body.logo.url).not.toBe(first.body.logo.url);
    expect((await fetchLogo(first.body.logo.url)).status).toBe(404);
    expect((await fetchLogo(third.body.logo.url)).status).toBe(200);

    const cleared = await putBrand(company.id, { display_name: null, logo: null, accent_color: null, default_email_message: null });
    expect(cleared.body).toEqual({ company_id: company.id, display_name: null, accent_color: null, default_email_message: null, language: null, logo: null });
    expect((await fetchLogo(third.body.logo.url)).status).toBe(404);
    expect(await brandRow(company.id)).toMatchObject({ logo: null, logoType: null, logoSha256: null });
  });

  it('reads an unbranded company as nulls', async () => {
    const company = await adminCompany(stack);
    expect((await admin(stack, 'GET', brandPath(company.id))).body).toEqual({
      company_id: company.id,
      display_name: null,
      accent_color: null,
      default_email_message: null,
      language: null,
      logo: null,
    });
  });

  it.each<[string, Buffer]>([
    ['an SVG', svgLogo],
    ['an SVG with a byte-order mark and white space first', Buffer.concat([Buffer.from('\uFEFF  \n'), svgLogo])],
    ['a GIF (a file named logo.png)', gifLogo],
    ['plain text', Buffer.from('not an image at all')],
    ['a PNG cut short', logoPng().subarray(0, 60)],
    ['a PNG whose data is not what its header says', encodePng(canvasRows(40, 20), 40, 20, { width: 41, height: 20 })],
    ['an indexed (palette) PNG', indexedPng()],
    ['a JPEG without its end', logoJpeg().subarray(0, -2)],
    ['a JPEG without the tables to decode it', jpegStructure()],
    ['a JPEG whose picture is not what its frame says', Buffer.concat([logoJpeg().subarray(0, firstScanAt(logoJpeg()) + 14), Buffer.from([0xff, 0xd9])])],
    ['a lossless JPEG', jpegStructure({ frame: 0xc3 })],
    ['a CMYK JPEG', jpegStructure({ components: 4 })],
    ['an empty file', Buffer.alloc(0)],
  ])('refuses %s as a logo with 422 validation_failed, and changes nothing', async (_label, bytes) => {
    const company = await adminCompany(stack);
    await putBrand(company.id, { display_name: 'Before' });
    expectError(await putBrand(company.id, { logo: base64(bytes), display_name: 'After' }), 422, 'validation_failed', ['logo']);
    expect(await brandRow(company.id)).toMatchObject({ displayName: 'Before', logo: null });
  });

  it('says why an SVG is refused', async () => {
    const company = await adminCompany(stack);
    const answer = await putBrand(company.id, { logo: base64(svgLogo) });
    expect(answer.body.error.details.issues[0].message).toMatch(/SVG/);
  });

  it.each<[string, Buffer, boolean]>([
    ['a PNG of exactly the byte limit', logoPng(40, 20, MAX_LOGO_BYTES), true],
    ['a PNG one byte over', logoPng(40, 20, MAX_LOGO_BYTES + 1), false],
    ['a JPEG of exactly the byte limit', logoJpeg({ padTo: MAX_LOGO_BYTES }), true],
    ['a JPEG one byte over', logoJpeg({ padTo: MAX_LOGO_BYTES + 1 }), false],
    ['a PNG 1024 pixels wide and high', logoPng(1024, 1024), true],
    ['a PNG 1025 pixels wide', logoPng(1025, 1), false],
    ['a PNG 1025 pixels high', logoPng(1, 1025), false],
    ['a JPEG 1024 × 1024', logoJpeg({ width: 1024, height: 1024 }), true],
    ['a JPEG 1025 pixels wide', logoJpeg({ width: 1025, height: 1 }), false],
    ['a JPEG 1025 pixels high', logoJpeg({ width: 1, height: 1025 }), false],
  ])('bounds: %s', async (_label, bytes, accepted) => {
    const company = await adminCompany(stack);
    const answer = await putBrand(company.id, { logo: base64(bytes) });
    if (accepted) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    else expectError(answer, 422, 'validation_failed', ['logo']);
  });

  it('takes base64 broken into lines, as `base64` writes it, and refuses text that is not base64', async () => {
    const company = await adminCompany(stack);
    const wrapped = base64(logoPng()).replace(/.{76}/g, '$&\n');
    expect((await putBrand(company.id, { logo: wrapped })).status).toBe(200);
    for (const logo of ['data:image/png;base64,iVBORw0KGgo=', 'iVBORw0KGgo*', 'a', 42]) {
      expectError(await putBrand(company.id, { logo }), 422, 'validation_failed', ['logo']);
    }
  });

  it.each<[string, unknown]>([
    ['five digits', '#12345'],
    ['seven digits', '#1234567'],
    ['no #', '123456'],
    ['a colour name', 'red'],
    ['not hex', '#GGGGGG'],
    ['three digits', '#abc'],
    ['a line break after it', '#123456\n'],
    ['a number', 123456],
  ])('refuses an accent colour of %s', async (_label, accent_color) => {
    const company = await adminCompany(stack);
    expectError(await putBrand(company.id, { accent_color }), 422, 'validation_failed', ['accent_color']);
  });

  it.each<[string, string, boolean]>([
    ['100 characters', 'n'.repeat(100), true],
    ['101 characters', 'n'.repeat(101), false],
    ['a line feed', 'Acme\nBcc: x@example.test', false],
    ['a carriage return', 'Acme\rLegal', false],
    ['a tab', 'Acme\tLegal', false],
    ['NEL (U+0085)', 'Acme\u0085Legal', false],
    ['a line separator (U+2028)', 'Acme\u2028Legal', false],
    ['DEL', 'Acme\u007f', false],
    ['only spaces', '   ', false],
    ['an empty string', '', false],
    ['any script', 'Ünïcødé 株式会社 شركة', true],
  ])('display name of %s', async (_label, display_name, accepted) => {
    const company = await adminCompany(stack);
    const answer = await putBrand(company.id, { display_name });
    if (accepted) expect(answer.body.display_name).toBe(display_name);
    else expectError(answer, 422, 'validation_failed', ['display_name']);
  });

  it('bounds the default e-mail message at 5,000 characters', async () => {
    const company = await adminCompany(stack);
    expect((await putBrand(company.id, { default_email_message: 'm'.repeat(5000) })).status).toBe(200);
    expectError(await putBrand(company.id, { default_email_message: 'm'.repeat(5001) }), 422, 'validation_failed', ['default_email_message']);
  });

  it('refuses unknown fields', async () => {
    const company = await adminCompany(stack);
    expectError(await putBrand(company.id, { display_name: 'X', colour: '#000000' }), 422, 'validation_failed', ['colour']);
    expectError(await putBrand(company.id, { logo_type: 'image/png' }), 422, 'validation_failed', ['logo_type']);
    expectError(await putBrand(company.id, []), 422, 'validation_failed');
  });

  it('answers an unknown or malformed company with 404 company_not_found, on PUT and GET', async () => {
    for (const companyId of [crypto.randomUUID(), 'acme']) {
      expectError(await putBrand(companyId, { display_name: 'Nobody' }), 404, 'company_not_found');
      expectError(await admin(stack, 'GET', brandPath(companyId)), 404, 'company_not_found');
    }
  });

  it('changes only its own company: another company keeps its brand, and its logo is not served under another id', async () => {
    const [mine, theirs] = [await adminCompany(stack), await adminCompany(stack)];
    const theirsBefore = (await putBrand(theirs.id, { display_name: 'Theirs', logo: base64(logoPng(8, 8)), accent_color: '#000000' })).body;
    const mineAfter = (await putBrand(mine.id, { display_name: 'Mine', logo: base64(logoPng(8, 8)), accent_color: '#ffffff' })).body;
    expect((await admin(stack, 'GET', brandPath(theirs.id))).body).toEqual(theirsBefore);
    const version = theirsBefore.logo.url.split('/').at(-1);
    expect((await fetchLogo(`/brand/${mine.id}/logo/${version}`)).status).toBe(404);
    // The same image has a different address in each company.
    expect(mineAfter.logo.url.split('/').at(-1)).not.toBe(version);
  });

  it('answers 401 without the admin token, and the logo address needs none', async () => {
    const company = await adminCompany(stack);
    const answer = await call(stack, 'PUT', brandPath(company.id), { body: { display_name: 'X' } });
    expectError(answer, 401, 'unauthorized');
    expectError(await call(stack, 'GET', brandPath(company.id), { token: 'wrong' }), 401, 'unauthorized');
  });

  it('answers 404 for a logo address that is not one: a made-up version, a malformed id, a company without a logo', async () => {
    const company = await adminCompany(stack);
    for (const path of [`/brand/${company.id}/logo/${'A'.repeat(32)}`, `/brand/acme/logo/${'A'.repeat(32)}`, `/brand/${company.id}/logo/short`]) {
      expect((await fetchLogo(path)).status).toBe(404);
    }
  });
});

describe('GET /brand/accent/{rrggbb}.css', () => {
  it('gives the accent colour as a stylesheet the signing page may load, and nothing for anything else', async () => {
    const response = await stack.app.request('/brand/accent/0b7a53.css');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await response.text()).toBe(':root { --brand-accent: #0b7a53; }\n');
    for (const path of ['/brand/accent/0B7A53.css', '/brand/accent/0b7a5.css', '/brand/accent/red.css', '/brand/accent/0b7a53%7D.css']) {
      expect((await stack.app.request(path)).status).toBe(404);
    }
  });
});

/** A 2×2 indexed PNG, as PNG optimisers often write logos. */
function indexedPng(): Buffer {
  const rows = Buffer.from([0, 0, 1, 0, 1, 0]);
  return pngFile(ihdr({ width: 2, height: 2, colourType: 3 }), pngChunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255])), pngChunk('IDAT', deflateSync(rows)));
}
