/**
 * How many characters of a text message fit one segment (3GPP TS 23.038): 160 in the GSM 7-bit
 * alphabet, whose extension characters (`€`, `[`, `{`, …) take two places; otherwise the whole
 * message goes in UCS-2, 70 UTF-16 units. A longer message is split in parts of 153 or 67, each
 * billed as a message of its own.
 */

/** The GSM 7-bit default alphabet (the basic table, its escape excluded). */
const GSM_BASIC = new Set('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà');
/** The extension table's characters: each is sent as an escape and the character, two places. */
const GSM_EXTENDED = new Set('\f^{}\\[~]|€');

export const GSM7_SEGMENT = 160;
export const UCS2_SEGMENT = 70;

export type SegmentCount = { encoding: 'GSM-7' | 'UCS-2'; units: number; limit: number };

/** The encoding a provider sends `body` in, its length in that encoding, and what one segment holds. */
export function segmentCount(body: string): SegmentCount {
  let septets = 0;
  for (const char of body) {
    if (GSM_BASIC.has(char)) septets += 1;
    else if (GSM_EXTENDED.has(char)) septets += 2;
    else return { encoding: 'UCS-2', units: body.length, limit: UCS2_SEGMENT };
  }
  return { encoding: 'GSM-7', units: septets, limit: GSM7_SEGMENT };
}

export const fitsOneSegment = (body: string): boolean => {
  const { units, limit } = segmentCount(body);
  return units <= limit;
};
