/**
 * The `APP` binding: the company application's Worker (wrangler.app.toml), which serves `/app` and
 * every path under it. The API Worker forwards those requests to it as they came, and answers
 * every other path itself, so that none of the application's code is in the API Worker's bundle.
 */
export const APPLICATION_BINDING = 'APP';

type Service = { fetch(request: Request): Promise<Response> };

/** `/app` and the paths under it: the application's own pattern (`/app/*`), not `/apples`. */
export function isApplicationPath(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return pathname === '/app' || pathname.startsWith('/app/');
}

/** The binding, checked when the Worker starts: without it every page of the application would fail. */
export function applicationService(env: Record<string, unknown>): Service {
  const binding = env[APPLICATION_BINDING] as Partial<Service> | undefined;
  if (typeof binding?.fetch !== 'function') {
    throw new Error(
      `The API Worker's configuration is incomplete: the ${APPLICATION_BINDING} service binding is missing (deploy wrangler.app.toml, and keep its [[services]] in wrangler.toml).`,
    );
  }
  return binding as Service;
}
