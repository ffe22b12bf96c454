/**
 * The font source of the PDF Worker: the files that `postinstall` copied into its static assets
 * (wrangler.pdf.toml's [assets], binding FONTS), with manifest.json beside them; under
 * `npm run dev`, the same folder served on loopback (FONTS_URL, local/standins/pdf-fonts.ts).
 * What an isolate has fetched it keeps for its life: only the first document needing a file pays.
 */
import { type FontManifest, type FontSource, remembered } from './font-source.js';

/** The part of a Workers `Fetcher` (an assets binding) that is used here. */
export type AssetFetcher = { fetch(input: string): Promise<Response> };

// Asset bindings answer any host; the name only makes the URL whole.
const BASE = 'https://pdf-fonts.assets/';

/** The same files served over HTTP from `base` (`npm run dev`, where the Worker cannot have its assets). */
export function urlFetcher(base: string): AssetFetcher {
  return { fetch: (input) => fetch(new URL(new URL(input).pathname.slice(1), base)) };
}

export function assetFontSource(assets: AssetFetcher): FontSource {
  const get = async (path: string) => {
    const res = await assets.fetch(BASE + path);
    if (!res.ok) throw new Error(`The font asset ${path} answered ${res.status}.`);
    return res;
  };
  let manifest: Promise<FontManifest> | undefined;
  return {
    manifest: () => {
      manifest ??= get('manifest.json').then((res) => res.json() as Promise<FontManifest>);
      manifest.catch(() => (manifest = undefined));
      return manifest;
    },
    read: remembered(async (file) => new Uint8Array(await (await get(file)).arrayBuffer())),
  };
}
