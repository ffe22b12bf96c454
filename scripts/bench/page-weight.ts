/**
 * What a page of the application ships besides its HTML: the scripts and style sheets it names
 * (`<script src>`, `<link rel="stylesheet">`), read from `public/` as the server serves them, and
 * their size once gzipped, as a browser receives them. The application's aim is at most 60 KiB of
 * script and style per page (docs/application.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { projectRoot } from '../../local/embedded-server.js';

export const MAX_SHIPPED_BYTES = 60 * 1024;

const ASSET = /<script\b[^>]*\bsrc="(\/static\/[^"]+)"|<link\b[^>]*\brel="stylesheet"[^>]*\bhref="(\/static\/[^"]+)"/g;

/** The page's own scripts and style sheets, and their gzipped bytes in all. */
export function shippedWeight(html: string): { assets: string[]; gzipBytes: number } {
  const assets = [...new Set([...html.matchAll(ASSET)].map((match) => (match[1] ?? match[2])!))];
  const gzipBytes = assets.reduce((total, path) => total + gzipSync(readFileSync(join(projectRoot, 'public', path))).byteLength, 0);
  return { assets, gzipBytes };
}
