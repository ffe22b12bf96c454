/**
 * The one rule for control characters in text a person gives us.
 *
 * Single-line text (a subject, a title, a name, an e-mail address, a label) ends up in an e-mail
 * header or on one line of a page or PDF. A line break there splits a header (`Hi\r\nBcc: …` adds a
 * recipient), and any other control character is either invisible or read as a break by some
 * client, so none is taken: C0 (tab included), DEL, C1 (NEL, U+0085, breaks lines in XML and
 * some mail readers) and the Unicode line and paragraph separators.
 *
 * Multi-line text (an e-mail message) keeps its line breaks, LF or CRLF, and tabs; everything else
 * of that set is refused too, a lone CR included: mail readers disagree on what it means.
 */
const NOT_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const NOT_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]|\r(?!\n)/;

export const isSingleLineText = (value: string) => !NOT_SINGLE_LINE.test(value);
export const isMultiLineText = (value: string) => !NOT_MULTI_LINE.test(value);

/**
 * Text stored before the rule, made single-line for an e-mail: each run of control characters
 * becomes one space, so words stay apart and nothing can start a new header.
 */
export const asSingleLine = (value: string) => value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');

/** Text stored before the rule, made multi-line text: any line break becomes LF, other control characters go. */
export const asMultiLine = (value: string) =>
  value.replace(/\r\n|[\r\u0085\u2028\u2029]/g, '\n').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '');
