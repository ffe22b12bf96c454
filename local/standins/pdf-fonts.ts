/**
 * The PDF Worker's static assets (its fonts, wrangler.pdf.toml's [assets]) for `npm run dev`.
 * wrangler dev runs both Workers in one runtime whose asset storage serves a single directory, the
 * API Worker's public/: a second Worker's assets binding answers 500 there. So in dev the same
 * files, from the same folder, are served on loopback and the PDF Worker reads them over FONTS_URL.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Standin } from './standin.js';

export function createPdfFontsStandin(directory: string): Standin {
  return {
    async fetch(request) {
      const name = new URL(request.url).pathname.slice(1);
      // File names only: nothing outside the folder can be asked for.
      if (request.method !== 'GET' || !/^[\w.-]+$/.test(name)) return new Response('Not found', { status: 404 });
      return readFile(join(directory, name)).then(
        (bytes) => new Response(bytes, { headers: { 'content-type': name.endsWith('.json') ? 'application/json' : 'font/woff' } }),
        () => new Response('Not found', { status: 404 }),
      );
    },
    close: async () => {},
  };
}
