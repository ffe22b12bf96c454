/**
 * Drawn signatures decoded under a budget: what a signer's PNG may be, what is refused before any
 * decoder sees it, the zlib stream inflated in steps that stop past the header's size, and the
 * service's own PNG that comes out, which pdf-lib embeds.
 */
import { deflateRawSync, deflateSync, constants as zlib } from 'node:zlib';
import { decode } from 'fast-png';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { inflatedLengthWithin } from '../../src/lib/bounded-inflate.js';
import { MAX_SIGNATURE_PIXELS, redrawPng, redrawPngDataUrl } from '../../src/lib/drawn-png.js';
import { canvasRows, encodePng, HOSTILE_PNG, ihdr, pngChunk, pngDataUrl, pngFile } from '../support/png.js';

const canvas = (width: number, height: number) => encodePng(canvasRows(width, height), width, height);

/** `copies` × 1 MiB of zeros as one zlib stream, made of one flushed block repeated: a bomb without making a bomb's worth of input. */
function zeroBomb(copies: number): Buffer[] {
  const block = deflateRawSync(Buffer.alloc(1 << 20), { finishFlush: zlib.Z_FULL_FLUSH });
  const total = copies * (1 << 20);
  // Adler-32 of zeros: a stays 1, b adds 1 per byte.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  return [Buffer.from([0x78, 0x9c]), ...Array.from({ length: copies }, () => block), Buffer.from([0x03, 0x00]), adler];
}

describe('redrawPng', () => {
  it('refuses the PNG whose data is not zlib, at once', () => {
    expect(redrawPngDataUrl(HOSTILE_PNG)).toEqual({ refused: 'unreadable' });
  });

  it('refuses a PNG cut short: after its header, inside its data, and before IEND', () => {
    const whole = canvas(40, 10);
    for (const end of [33, 41, 60, whole.length - 12, whole.length - 1]) expect(redrawPng(whole.subarray(0, end))).toEqual({ refused: 'unreadable' });
    // Chunks and CRCs intact, but the zlib stream inside stops halfway.
    const compressed = deflateSync(canvasRows(40, 10));
    const cut = pngFile(ihdr({ width: 40, height: 10 }), pngChunk('IDAT', compressed.subarray(0, compressed.length >> 1)));
    expect(redrawPng(cut)).toEqual({ refused: 'unreadable' });
  });

  it('refuses data that inflates to more or less than the header declares, and rows with an unknown filter', () => {
    const rows = canvasRows(40, 10);
    const longer = pngFile(ihdr({ width: 40, height: 10 }), pngChunk('IDAT', deflateSync(Buffer.concat([rows, Buffer.alloc(1)]))));
    const shorter = pngFile(ihdr({ width: 40, height: 10 }), pngChunk('IDAT', deflateSync(rows.subarray(1))));
    const badFilter = Buffer.from(rows);
    badFilter[0] = 5;
    for (const png of [longer, shorter, encodePng(badFilter, 40, 10)]) expect(redrawPng(png)).toEqual({ refused: 'unreadable' });
  });

  it('refuses a zlib bomb declaring a small canvas, without inflating past the canvas', () => {
    const bomb = zeroBomb(64);
    const png = pngFile(ihdr({ width: 16, height: 16 }), pngChunk('IDAT', Buffer.concat(bomb)));
    expect(redrawPng(png)).toEqual({ refused: 'unreadable' });
    // The same stream given part by part: the inflation stops at the first part past the limit.
    let read = 0;
    const parts = function* () {
      for (const part of zeroBomb(1024)) {
        read++;
        yield part;
      }
    };
    expect(inflatedLengthWithin(parts(), 3 << 20)).toBeNull();
    expect(read).toBe(1 + 4);
    // Within its limit, the same stream is counted whole.
    expect(inflatedLengthWithin(zeroBomb(4), 4 << 20)).toBe(4 << 20);
  });

  it(`takes a canvas of exactly ${MAX_SIGNATURE_PIXELS} pixels and refuses one more`, () => {
    const atBound = redrawPng(canvas(2000, MAX_SIGNATURE_PIXELS / 2000));
    expect(atBound).toMatchObject({ width: 2000, height: 2000 });
    // One pixel more: refused from its header alone, however little data follows.
    const past = pngFile(ihdr({ width: MAX_SIGNATURE_PIXELS + 1, height: 1 }), pngChunk('IDAT', deflateSync(Buffer.alloc(1))));
    expect(redrawPng(past)).toEqual({ refused: 'too_large' });
    expect(redrawPng(encodePng(canvasRows(4, 4), 4, 4, { width: 100_000, height: 100_000 }))).toEqual({ refused: 'too_large' });
  });

  it('refuses what is not a PNG, and a PNG without size or data', () => {
    const notPng = [
      'data:image/png;base64,',
      'data:image/png;base64,!!!not base64!!!',
      `data:image/png;base64,${btoa('GIF89a, not a PNG at all')}`,
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      pngDataUrl(pngFile(ihdr({ width: 0, height: 10 }), pngChunk('IDAT', deflateSync(Buffer.alloc(0))))),
      pngDataUrl(pngFile(ihdr({ width: 4, height: 4 }))),
      pngDataUrl(pngFile(pngChunk('IDAT', deflateSync(canvasRows(4, 4))), ihdr({ width: 4, height: 4 }))),
    ];
    for (const value of notPng) expect(redrawPngDataUrl(value)).toEqual({ refused: 'unreadable' });
    const corrupted = canvas(40, 10);
    corrupted[50] = corrupted[50]! ^ 0xff;
    expect(redrawPng(corrupted)).toEqual({ refused: 'unreadable' });
  });

  it('refuses palette, 16-bit, sub-byte and interlaced images, and unknown critical chunks', () => {
    const data = pngChunk('IDAT', deflateSync(Buffer.alloc(4 * 9)));
    const unsupported = [
      pngFile(ihdr({ width: 4, height: 4, colourType: 3 }), pngChunk('PLTE', Buffer.alloc(3)), data),
      pngFile(ihdr({ width: 4, height: 4, bitDepth: 16 }), data),
      pngFile(ihdr({ width: 4, height: 4, bitDepth: 1, colourType: 0 }), data),
      pngFile(ihdr({ width: 4, height: 4, interlace: 1 }), data),
      pngFile(ihdr({ width: 4, height: 4 }), pngChunk('ZZZZ', Buffer.alloc(1)), pngChunk('IDAT', deflateSync(canvasRows(4, 4)))),
    ];
    for (const png of unsupported) expect(redrawPng(png)).toEqual({ refused: 'unsupported' });
  });

  it('draws a canvas PNG again as the same pixels, without its ancillary chunks, and pdf-lib embeds it', async () => {
    const rows = canvasRows(60, 20);
    const posted = pngFile(
      ihdr({ width: 60, height: 20 }),
      pngChunk('tEXt', Buffer.from('Comment\0from the pad', 'latin1')),
      // An ICC profile whose zlib stream would be a bomb of its own: never decoded.
      pngChunk('iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), ...zeroBomb(8)])),
      // The data split across several chunks, as encoders do.
      ...splitInto(deflateSync(rows), 3).map((part) => pngChunk('IDAT', part)),
    );
    const redrawn = redrawPngDataUrl(pngDataUrl(posted));
    if ('refused' in redrawn) throw new Error(redrawn.refused);
    expect(redrawn.dataUrl).toBe(pngDataUrl(redrawn.png));
    expect(Buffer.from(redrawn.png).includes('iCCP')).toBe(false);
    const decoded = decode(redrawn.png);
    expect({ width: decoded.width, height: decoded.height, channels: decoded.channels, depth: decoded.depth }).toEqual({
      width: 60,
      height: 20,
      channels: 4,
      depth: 8,
    });
    expect(Buffer.from(decoded.data)).toEqual(Buffer.from(rowsWithoutFilterBytes(rows, 60 * 4)));
    const image = await (await PDFDocument.create()).embedPng(redrawn.png);
    expect([image.width, image.height]).toEqual([60, 20]);
  });

  it('takes 8-bit grey, grey with alpha and RGB as they are', () => {
    for (const [colourType, channels] of [
      [0, 1],
      [4, 2],
      [2, 3],
    ] as const) {
      const rows = Buffer.alloc(5 * (1 + 8 * channels), 0x80);
      for (let y = 0; y < 5; y++) rows[y * (1 + 8 * channels)] = 0;
      const redrawn = redrawPng(pngFile(ihdr({ width: 8, height: 5, colourType }), pngChunk('IDAT', deflateSync(rows))));
      if ('refused' in redrawn) throw new Error(`${colourType}: ${redrawn.refused}`);
      expect(decode(redrawn.png)).toMatchObject({ width: 8, height: 5, channels });
    }
  });
});

function splitInto(bytes: Buffer, parts: number): Buffer[] {
  const size = Math.ceil(bytes.length / parts);
  return Array.from({ length: parts }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

function rowsWithoutFilterBytes(rows: Buffer, rowLength: number): Buffer {
  const out: Buffer[] = [];
  for (let at = 0; at < rows.length; at += rowLength + 1) out.push(rows.subarray(at + 1, at + 1 + rowLength));
  return Buffer.concat(out);
}
