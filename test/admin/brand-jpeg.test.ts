/**
 * A JPEG logo through `PUT /admin/v1/companies/{id}/brand`: decoded under the logo's bound and
 * encoded again by the service, so that what e-mails and the signing page serve is the picture
 * and nothing that rode along with it; a file that would cost the decoder too much is refused
 * before it is decoded.
 */
import { eq } from 'drizzle-orm';
import { decode as decodeJpegData } from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandSettings } from '../../src/data/schema.js';
import { MAX_JPEG_SCANS } from '../../src/lib/brand-logo.js';
import { expectError } from '../support/expect-error.js';
import { base64, firstScanAt, jpegSegment, logoJpeg } from '../support/logo-images.js';
import { BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { admin, adminCompany } from './admin-support.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

const putBrand = (companyId: string, body: unknown) => admin(stack, 'PUT', `/admin/v1/companies/${companyId}/brand`, body);
const brandRow = async (companyId: string) => (await stack.services.database.db.select().from(brandSettings).where(eq(brandSettings.companyId, companyId)))[0]!;

/** The logo as a mail client fetches it: no credentials, from the address the brand gives. */
async function fetchLogo(url: string) {
  const response = await stack.app.request(url.replace(BASE_URL, ''));
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const decodeJpeg = (bytes: Uint8Array) => decodeJpegData(bytes, { useTArray: true });
/** How far two pictures of one size are apart, on average per sample (0 to 255). */
function meanDifference(a: { width: number; height: number; data: Uint8Array }, b: { width: number; height: number; data: Uint8Array }): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

describe('a JPEG logo', () => {
  it('takes a JPEG, kept as the service encodes it again: the same picture, in a file of its making', async () => {
    const company = await adminCompany(stack);
    const jpeg = logoJpeg({ width: 300, height: 120 });
    const answer = await putBrand(company.id, { logo: base64(jpeg) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const row = await brandRow(company.id);
    expect(answer.body.logo).toMatchObject({ type: 'image/jpeg', bytes: row.logo!.length });
    const logo = await fetchLogo(answer.body.logo.url);
    expect(logo.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(logo.bytes)).toEqual(Buffer.from(row.logo!));
    expect(meanDifference(decodeJpeg(logo.bytes), decodeJpeg(jpeg))).toBeLessThan(3);
  });

  it('keeps nothing of a JPEG but its picture: markup in a comment or an application segment, and bytes after its end, are gone', async () => {
    const company = await adminCompany(stack);
    const plain = logoJpeg({ width: 64, height: 32 });
    const markup = '<script>alert(document.domain)</script><a href="https://phish.example">';
    const scanAt = firstScanAt(plain);
    const laden = Buffer.concat([
      plain.subarray(0, scanAt),
      jpegSegment(0xfe, Buffer.from(markup)), // a comment
      jpegSegment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0'), Buffer.from(markup)])), // XMP
      plain.subarray(scanAt),
      Buffer.from(markup), // after EOI
    ]);
    const answer = await putBrand(company.id, { logo: base64(laden) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const kept = Buffer.from((await fetchLogo(answer.body.logo.url)).bytes);
    expect(kept.includes('<script>')).toBe(false);
    expect(kept.includes('phish.example')).toBe(false);
    expect(kept.includes('ns.adobe.com')).toBe(false);
    // It ends at its own end, and shows what was sent.
    expect([...kept.subarray(-2)]).toEqual([0xff, 0xd9]);
    expect(meanDifference(decodeJpeg(kept), decodeJpeg(plain))).toBeLessThan(3);
  });

  it('refuses a JPEG that declares an enormous picture before decoding any of it, saying the bound', async () => {
    const company = await adminCompany(stack);
    const bomb = logoJpeg({ width: 16, height: 16 });
    // The frame header's height and width, at its fifth byte: 65,500 × 65,500 pixels, 17 GB decoded.
    const sof = bomb.indexOf(Buffer.from([0xff, 0xc0]));
    bomb.writeUInt16BE(65_500, sof + 5);
    bomb.writeUInt16BE(65_500, sof + 7);
    const answer = await putBrand(company.id, { logo: base64(bomb) });
    expectError(answer, 422, 'validation_failed', ['logo']);
    expect(answer.body.error.details.issues[0].message).toBe('The logo is 65500×65500 pixels; at most 1024×1024 are taken.');
    expect(await brandRow(company.id)).toMatchObject({ logo: null });
  });

  it.each<[string, number, boolean]>([
    [`${MAX_JPEG_SCANS} scans`, MAX_JPEG_SCANS, true],
    [`${MAX_JPEG_SCANS + 1} scans`, MAX_JPEG_SCANS + 1, false],
  ])('bounds the scans of a JPEG: %s', async (_label, scans, accepted) => {
    const company = await adminCompany(stack);
    const plain = logoJpeg();
    const scanAt = firstScanAt(plain);
    // The one scan again and again: each is a pass of the decoder over the whole picture.
    const scan = plain.subarray(scanAt, -2);
    const many = Buffer.concat([plain.subarray(0, scanAt), ...Array.from({ length: scans }, () => scan), plain.subarray(-2)]);
    const answer = await putBrand(company.id, { logo: base64(many) });
    if (accepted) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    else {
      expectError(answer, 422, 'validation_failed', ['logo']);
      expect(answer.body.error.details.issues[0].message).toContain(`more than ${MAX_JPEG_SCANS} scans`);
    }
  });
});
