/**
 * The text message that carries a verification code: a fixed text of the signer's language with
 * the company's display name and the code, nothing else (the page says until when the code
 * works). No title, message or link of the sender's goes in: a text from the platform's number
 * would lend them its trust (a phishing line under a real code), and each could lengthen it. It
 * fits one segment (160 GSM 7-bit characters, or 70 in UCS-2 when the language or the name needs
 * it): the display name is cut to fit, whole characters kept, rather than the message billed as
 * two or more.
 */
import type { Messages } from '../../i18n/index.js';
import { asSingleLine } from '../../lib/single-line-text.js';
import { fitsOneSegment, segmentCount } from '../../lib/text-message-segments.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function codeTextMessage(m: Messages, displayName: string, code: string): string {
  const render = (from: string) => m.text('sms.code', { code, from });
  // Invisible format characters (bidi overrides among them) could make the name read as something
  // else; the joiners stay, as emoji and some scripts need them.
  const name = asSingleLine(displayName)
    .replace(/(?![\u200c\u200d])\p{Cf}/gu, '')
    .trim();
  const whole = render(name);
  if (fitsOneSegment(whole)) return whole;
  const parts = Array.from(graphemes.segment(name), (part) => part.segment);
  // No name longer than a segment can fit; from there, the longest beginning that does, with an
  // ellipsis: three dots in a message of the GSM alphabet (it has no `…`, which would move the
  // message to UCS-2, of 70), `…` otherwise.
  for (let kept = Math.min(parts.length - 1, 160); kept > 0; kept--) {
    const beginning = parts.slice(0, kept).join('').trimEnd();
    const dots = render(`${beginning}...`);
    const body = segmentCount(dots).encoding === 'GSM-7' ? dots : render(`${beginning}…`);
    if (fitsOneSegment(body)) return body;
  }
  return render('…');
}
