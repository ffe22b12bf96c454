/**
 * The embedded server's example of embedded signing: `examples/embed.html` at `/dev/embed-example`,
 * a page of the integrator's side that frames a signing link with `/static/embed.js` and lists the
 * events it receives. Its path is relative to `/dev`, where the Node entry's development pages are; it is read on each request, so an edit shows
 * at once.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';

export const embedExamplePath = fileURLToPath(new URL('../../examples/embed.html', import.meta.url));

export function devEmbedExampleRoutes() {
  const app = new Hono();
  app.get('/embed-example', async (c) => c.html(await readFile(embedExamplePath, 'utf8'), 200, { 'Cache-Control': 'no-store' }));
  return app;
}
