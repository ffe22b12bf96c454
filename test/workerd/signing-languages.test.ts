/**
 * The signing page's languages inside workerd, whose ICU is not Node's: messages with plurals by
 * each language's rules, dates in the signer's locale, and a page in Arabic, right to left.
 */
import { describe, expect, it } from 'vitest';
import { statePage } from '../../src/signing-page/html/state-pages.js';
import { messagesFor } from '../../src/i18n/index.js';

const envelope = { id: 'env_x', title: 'NDA', message: null, senderEmail: 'olivia@acme.test', expiresAt: new Date('2026-12-22T12:00:00.000Z'), language: null };
const links = {
  document: '/sign/x/document.pdf',
  download: '/sign/x/document.pdf?download=1',
  language: { path: '/sign/x' },
  brand: { displayName: 'أكمي', logoPath: null, accentColor: null },
};

describe('the signing page’s languages in workerd', () => {
  it('formats plurals and dates by each language’s rules', () => {
    expect(messagesFor('pl').text('tooMany.lead', { minutes: 3 })).toContain('Odczekaj 3 minuty');
    expect(messagesFor('pl').text('tooMany.lead', { minutes: 5 })).toContain('Odczekaj 5 minut');
    expect(messagesFor('he').text('tooMany.lead', { minutes: 2 })).toContain('שתי דקות');
    expect(messagesFor('de').date(envelope.expiresAt, { withTime: true })).toBe('22. Dezember 2026 um 12:00 UTC');
    expect(messagesFor('ja').date(envelope.expiresAt, { withTime: true })).toBe('2026年12月22日 12:00 UTC');
  });

  it('renders a page in Arabic, right to left, its values isolated', () => {
    const page = String(statePage(messagesFor('ar'), { kind: 'expired', envelope }, links));
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('انتهت صلاحية طلب التوقيع هذا');
    expect(page).toContain('أرسله <bdi>أكمي</bdi> (<bdi>olivia@acme.test</bdi>)');
  });
});
