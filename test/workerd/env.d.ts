/**
 * The parts of the Workers runtime modules that the workerd suite uses, declared here rather than
 * through @cloudflare/workers-types, whose globals clash with the DOM and Node typings the rest of
 * the repository is checked with. This adds to the `cloudflare:workers` declaration of
 * src/entries/cloudflare-workers.d.ts (ambient module declarations of one name merge).
 */
declare module 'cloudflare:workers' {
  /** The `main` Worker's exports, as the pool wires them into the test isolate. */
  export const exports: {
    default: { fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> };
  };
}
