/**
 * Text from signers as it is drawn: any script is drawn (fonts/), but a value is laid out by the
 * caller, never by the input. NFC first, so that a letter typed as base + combining mark finds its
 * composed glyph; line and tab breaks read as spaces; any other control character, and a lone
 * surrogate, is shown as U+FFFD, so that nothing a signer types can disappear without a trace.
 */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function drawableText(text: string): string {
  return text.replace(BREAKS, ' ').replace(CONTROLS, '\ufffd').normalize('NFC');
}
