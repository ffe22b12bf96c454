/**
 * What a page of the application ships besides its HTML: the scripts and style sheets it names
 * (`<script src>`, `<link rel="stylesheet">`), read from `public/` as the server serves them, and
 * their size once gzipped, as a browser receives them. The application's aim is at most 60 KiB of
 * script and style per page (docs/application.md). Apart from that, what its scripts then load by
 * their own addresses (the builder's pdf.js and its worker): fetched once the page is shown, the
 * same files the signing page loads, and weighed here so that the figure is seen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { projectRoot } from '../../local/embedded-server.js';

export const MAX_SHIPPED_BYTES = 60 * 1024;

const ASSET = /<script\b[^>]*\bsrc="(\/static\/[^"]+)"|<link\b[^>]*\brel="stylesheet"[^>]*\bhref="(\/static\/[^"]+)"/g;
/** A script's own address of another script, as a string: `'/static/vendor/pdfjs/pdf.min.mjs'`. */
const LOADED = /['"`](\/static\/[^'"`\s]+\.m?js)['"`]/g;

const gzipped = (path: string) => gzipSync(readFileSync(join(projectRoot, 'public', path))).byteLength;

/** The page's own scripts and style sheets and their gzipped bytes in all; then the scripts those load, and theirs. */
export function shippedWeight(html: string): { assets: string[]; gzipBytes: number; loaded: string[]; loadedGzipBytes: number } {
  const assets = [...new Set([...html.matchAll(ASSET)].map((match) => (match[1] ?? match[2])!))];
  const scripts = assets.filter((path) => /\.m?js$/.test(path));
  const named = scripts.flatMap((path) => [...readFileSync(join(projectRoot, 'public', path), 'utf8').matchAll(LOADED)].map((match) => match[1]!));
  const loaded = [...new Set(named)].filter((path) => !assets.includes(path));
  const sum = (paths: string[]) => paths.reduce((total, path) => total + gzipped(path), 0);
  return { assets, gzipBytes: sum(assets), loaded, loadedGzipBytes: sum(loaded) };
}
