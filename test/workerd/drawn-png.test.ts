/** Drawn signatures decoded and drawn again inside workerd, where the signing form and the PDF Worker run it. */
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { redrawPngDataUrl } from '../../src/lib/drawn-png.js';

// A 24×8 RGBA PNG of a diagonal stroke, as a signature pad would send it.
const DRAWN = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABgAAAAICAYAAADjoT9jAAAAG0lEQVR42mPgEon6D8IMtAYwi0YtG7Vs8FkGAEQTIbKI3zeHAAAAAElFTkSuQmCC';
// Valid chunks and CRCs around image data that is not zlib.
const HOSTILE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAD0lEQVRub3QgemxpYiBhdCBhbGz44kQmAAAAAElFTkSuQmCC';

describe('redrawPngDataUrl in workerd', () => {
  it("draws a pad's PNG again as one pdf-lib embeds, and refuses data that is not zlib", async () => {
    const redrawn = redrawPngDataUrl(DRAWN);
    if ('refused' in redrawn) throw new Error(redrawn.refused);
    const image = await (await PDFDocument.create()).embedPng(redrawn.png);
    expect([image.width, image.height]).toEqual([24, 8]);
    expect(redrawPngDataUrl(HOSTILE)).toEqual({ refused: 'unreadable' });
  });
});
