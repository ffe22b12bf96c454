/**
 * zod as the API Worker bundles it: wrangler.toml's [alias] points the `zod` specifier here.
 *
 * The same exports as `zod`, except that `z.locales` (and `z.core.locales`) hold English only,
 * and the schema compiler and JSON Schema import are left out (left-out.js). zod's own entry exports
 * its 40-odd locales as a namespace, and @hono/zod-openapi hands `z` around as a value, so the
 * bundler must keep every locale: 260 KiB of the bundle, which workerd compiles at every cold start
 * (about 10 ms) for error messages the service never shows. A name a module exports itself takes
 * precedence over one of its `export *`, which is how those names are replaced (namespace.js).
 *
 * Node and the tests import zod itself; wrangler's alias matches the bare `zod` only, so `zod/v4`
 * in namespace.js is zod's own module. Plain JavaScript: TypeScript cannot follow a namespace that
 * contains itself, and nothing but the bundler reads these files.
 */
import * as z from './namespace.js';
export * from './namespace.js';
export { z, z as default };
