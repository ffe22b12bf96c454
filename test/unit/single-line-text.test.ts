/**
 * The one text rule: which characters single-line and multi-line text refuse, and how text stored
 * before the rule is cleaned for an e-mail.
 */
import { describe, expect, it } from 'vitest';
import { asMultiLine, asSingleLine, isMultiLineText, isSingleLineText } from '../../src/lib/single-line-text.js';
import { lineBreaksAndTabs, namesOfTheWorld, notMultiLine, notSingleLine, shown } from '../support/control-characters.js';

describe('single-line text', () => {
  it('refuses every C0 character, DEL, C1 and the line and paragraph separators, anywhere in the text', () => {
    for (const bad of notSingleLine) {
      for (const value of [`Hi${bad}Bcc: evil@example.com`, bad, `end${bad}`]) expect(isSingleLineText(value), shown(value)).toBe(false);
    }
  });

  it('takes the characters just past each refused range, and names in any script', () => {
    for (const value of [' ', '~', '\u00a0', '\u00a1', '\u2027', '\u202a', '\u200f', ...namesOfTheWorld])
      expect(isSingleLineText(value), shown(value)).toBe(true);
  });

  it('is cleaned for a header by turning each run of control characters into one space', () => {
    expect(asSingleLine('Hi\r\nBcc: evil@example.com')).toBe('Hi Bcc: evil@example.com');
    expect(asSingleLine('a\u0000\u0085\u2028b\tc')).toBe('a b c');
    for (const bad of notSingleLine) expect(isSingleLineText(asSingleLine(`x${bad}y`)), shown(bad)).toBe(true);
    for (const name of namesOfTheWorld) expect(asSingleLine(name)).toBe(name);
  });
});

describe('multi-line text', () => {
  it('keeps LF, CRLF and tabs', () => {
    for (const kept of lineBreaksAndTabs) expect(isMultiLineText(`Dear Cleo,${kept}please sign.${kept}`), shown(kept)).toBe(true);
  });

  it('refuses every other control character, and a CR that is not before an LF', () => {
    for (const bad of notMultiLine) expect(isMultiLineText(`Dear Cleo,${bad}please sign.`), shown(bad)).toBe(false);
    expect(isMultiLineText('line\r')).toBe(false);
    expect(isMultiLineText('line\n\r')).toBe(false);
  });

  it('is cleaned by making every line break an LF and dropping the other control characters', () => {
    expect(asMultiLine('a\r\nb\rc\u2028d\u2029e\u0085f')).toBe('a\nb\nc\nd\ne\nf');
    expect(asMultiLine('tab\tkept\u0000\u0007\u001b\u007f\u009f')).toBe('tab\tkept');
    for (const bad of notMultiLine) expect(isMultiLineText(asMultiLine(`x${bad}y`)), shown(bad)).toBe(true);
  });
});
