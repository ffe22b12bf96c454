/** The part of the Workers runtime module that the Worker entry uses. */
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>;
}
