/**
 * The characters the text rule is about, for the suites that try them: every one a single-line
 * field refuses, and which of them a multi-line field keeps.
 */
const c0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));

/** C0 (tab, LF and CR among them), CRLF, DEL, C1 at both ends and NEL, and the Unicode separators. */
export const notSingleLine: string[] = ['\r\n', ...c0, '\u007f', '\u0080', '\u0085', '\u009f', '\u2028', '\u2029'];

/** What multi-line text keeps: its line breaks and tabs. */
export const lineBreaksAndTabs: string[] = ['\n', '\r\n', '\t'];

/** What multi-line text still refuses: every other control character, and a CR not before an LF. */
export const notMultiLine: string[] = notSingleLine.filter((bad) => !lineBreaksAndTabs.includes(bad));

/** A control character as a reader of a failed expectation can see it. */
export const shown = (value: string) => JSON.stringify(value);

/** Names as people write them, in other scripts, with diacritics, right-to-left, an emoji. */
export const namesOfTheWorld = ['Łukasz Żółć', '李雷', 'محمد علي', 'Zoë 😀 O’Brien-Núñez', 'Ἀριστοτέλης', 'Nguyễn Thị Minh Khai'];
