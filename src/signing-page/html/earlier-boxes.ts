/**
 * What the signers before this one put on the document, over its pages as the finished PDF will
 * show it (src/pdf/draw-fields.ts): typed values at their places in the PDF's font, a typed
 * signature slanted in its ink (right-to-left text from the box's right edge), a drawing scaled into its box, a ticked box crossed, a radio
 * group's choice marked in its option's box. sign.js places and sizes them with the field boxes.
 */
import { html } from 'hono/html';
import type { EarlierValue } from '../../domain/signing/earlier-values.js';
import type { Messages } from '../../i18n/index.js';
import { DRAWN_TEXT_SIZES } from '../../ports/pdf-maker.js';
import type { Html } from './layout.js';

type Box = { x: number; y: number; width: number; height: number };

const sizes = (of: { max: number; min: number }) => html`data-max-size="${of.max}" data-min-size="${of.min}"`;

/** The box less the padding the PDF leaves inside it. */
function padded(box: Box): Box {
  const pad = Math.min(2, box.width / 4, box.height / 4);
  return { x: box.x + pad, y: box.y + pad, width: box.width - 2 * pad, height: box.height - 2 * pad };
}

/**
 * The direction the PDF lays a value out in: its first strong character's, left to right when it
 * has none (a date, a number), whatever the page's own direction.
 */
function directionOf(text: string): 'rtl' | 'ltr' {
  const strong = /[\p{L}]/u.exec(text)?.[0] ?? '';
  return /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/.test(strong) ? 'rtl' : 'ltr';
}

const placed = (box: Box) => html`data-earlier data-x="${box.x}" data-y="${box.y}" data-w="${box.width}" data-h="${box.height}"`;

/** Each earlier value on page `page`. */
export function earlierBoxes(m: Messages, values: readonly EarlierValue[], page: number): Html[] {
  return values.filter((value) => value.page === page).map((value) => earlierBox(m, value));
}

function earlierBox(m: Messages, value: EarlierValue): Html {
  const by = m.text('earlier.by', { name: value.signer });
  if (value.withheld) {
    return html`<div class="earlier-value earlier-withheld" ${placed(padded(value))} ${sizes(DRAWN_TEXT_SIZES.value)}><span class="earlier-text">${m.text('earlier.withheld', { name: value.signer })}</span></div>`;
  }
  const text = value.value ?? '';
  if (value.type === 'checkbox') {
    if (text !== 'true') return html``;
    return html`<div class="earlier-value earlier-checkbox" ${placed(value)} role="img" aria-label="${m.text('earlier.ticked', { name: value.signer })}"><svg viewBox="0 0 100 100" aria-hidden="true" focusable="false"><path d="M20 20L80 80M20 80L80 20"></path></svg></div>`;
  }
  if (value.type === 'radio') {
    const chosen = value.options?.find((option) => option.value === text);
    if (!chosen) return html``;
    return html`<div class="earlier-value earlier-radio" ${placed(padded(chosen))} ${sizes(DRAWN_TEXT_SIZES.value)}><span class="earlier-text">X</span><span class="visually-hidden"> ${text} (${by})</span></div>`;
  }
  const signature = value.type === 'signature' || value.type === 'initials';
  if (signature && text.startsWith('data:')) {
    return html`<div class="earlier-value earlier-drawn" ${placed(padded(value))}><img src="${text}" alt="${m.text('earlier.drawn', { name: value.signer })}"></div>`;
  }
  return html`<div class="earlier-value earlier-${value.type}${signature ? ' earlier-typed-signature' : ''}" ${placed(padded(value))} ${sizes(
    signature ? DRAWN_TEXT_SIZES.signature : DRAWN_TEXT_SIZES.value,
  )} dir="${directionOf(text)}"><span class="earlier-text">${text}</span><span class="visually-hidden"> (${by})</span></div>`;
}
