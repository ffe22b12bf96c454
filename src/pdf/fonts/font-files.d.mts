import type { FontFileEntry, FontManifest } from './font-source.js';

export const FONT_FAMILIES: [family: string, pkg: string, subsets: string[] | 'numbered'][];
export function parseRanges(text: string): [number, number][];
export function fontManifest(root: string): FontManifest;
export function packageDir(root: string, pkg: string): string;
export function fontPath(root: string, entry: FontFileEntry): string;
