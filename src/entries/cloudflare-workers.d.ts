/** The part of the Workers runtime module that the Worker entries use. */
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>;
  /** A Worker's named entry point, whose public methods other Workers call through a service binding (RPC). */
  export abstract class WorkerEntrypoint<Env = unknown> {
    protected readonly env: Env;
    constructor(ctx: unknown, env: Env);
  }
}
