/**
 * The brand's parts that run in the Worker, inside workerd: the logo check (a PNG or a JPEG decoded
 * and made again), an e-mail drawn from the catalogue in a company's language, and the brand's public
 * routes, answering without a database where they need none.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { emailWordsFor } from '../../src/domain/emails/email-words.js';
import { renderLetter } from '../../src/domain/emails/letter.js';
import { checkLogo } from '../../src/lib/brand-logo.js';

const worker = (path: string) => exports.default.fetch(new Request(`https://esign.example.test${path}`));
const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));

/** A 3×2 RGBA PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAEUlEQVR4nGNgQAYCCgn/YRgAGesErrmA+ckAAAAASUVORK5CYII=';
/** A 4×2 JPEG with `<svg onload=alert(1)>` in a comment segment. */
const JPEG =
  '/9j/4AAQSkZJRgABAQAAAQABAAD//gAXPHN2ZyBvbmxvYWQ9YWxlcnQoMSk+/9sAhAAGBAUGBQQGBgUGBwcGCAoQCgoJCQoUDg8MEBcUGBgXFBYWGh0lHxobIxwWFiAsICMmJykqKRkfLTAtKDAlKCkoAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAQDAREAAhEBAxEB/8QBogAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoLEAACAQMDAgQDBQUEBAAAAX0BAgMABBEFEiExQQYTUWEHInEUMoGRoQgjQrHBFVLR8CQzYnKCCQoWFxgZGiUmJygpKjQ1Njc4OTpDREVGR0hJSlNUVVZXWFlaY2RlZmdoaWpzdHV2d3h5eoOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4eLj5OXm5+jp6vHy8/T19vf4+foBAAMBAQEBAQEBAQEAAAAAAAABAgMEBQYHCAkKCxEAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDJldt5+ZvzrhilY+yybLMH9Uj+5j/4Cv8AI//Z';

describe('the brand in workerd', () => {
  it('checks a logo: a PNG is taken and made again, an SVG refused', () => {
    expect(checkLogo(bytesOf(PNG))).toMatchObject({ type: 'image/png', width: 3, height: 2 });
    expect(checkLogo(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({ refused: expect.stringContaining('SVG') });
  });

  it('checks a logo: a JPEG is decoded and encoded again, without its comment', () => {
    const checked = checkLogo(bytesOf(JPEG));
    expect(checked).toMatchObject({ type: 'image/jpeg', width: 4, height: 2 });
    const kept = 'bytes' in checked ? checked.bytes : new Uint8Array(0);
    expect([...kept.subarray(0, 2), ...kept.subarray(-2)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    expect(new TextDecoder('latin1').decode(kept)).not.toContain('<svg');
  });

  it('draws a signing e-mail in German, every value escaped', () => {
    const { words, ...speech } = emailWordsFor({ template: null, company: 'de' });
    const look = { displayName: 'Acme <GmbH>', accentColor: '#0b7a53', accentChosen: true, logoUrl: null, language: 'de' };
    const letter = words.signingRequest({
      from: look.displayName,
      senderEmail: 'ann@acme.test',
      title: 'NDA <script>',
      subject: 'Bitte unterschreiben',
      message: null,
      link: 'https://esign.example.test/sign/rcp_x.y',
      expiresAt: new Date('2026-12-24T00:00:00Z'),
    });
    const { html, text } = renderLetter(letter, look, speech);
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<strong>„NDA &lt;script&gt;“</strong>');
    expect(html).toContain('>Acme &lt;GmbH&gt;</span>');
    expect(text).toContain('Prüfen und unterschreiben: https://esign.example.test/sign/rcp_x.y');
    expect(text).toContain('24. Dezember 2026');
  });

  it('serves the accent stylesheet, and answers a malformed logo address with 404', async () => {
    const css = await worker('/brand/accent/0b7a53.css');
    expect(css.status).toBe(200);
    expect(await css.text()).toBe(':root { --brand-accent: #0b7a53; }\n');
    const logo = await worker(`/brand/acme/logo/${'A'.repeat(32)}`);
    expect(logo.status).toBe(404);
    expect(((await logo.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
