import { createHash } from 'node:crypto';

/**
 * Lua script flags Redis 7.0 knows. @upstash/ratelimit's scripts start with
 * `#!lua flags=allow-key-locking`, a flag Upstash (and newer servers) accept but Redis 7.0 refuses
 * ("Unexpected flag in script shebang"), so the stand-in drops flags outside this list.
 */
const redis70Flags = new Set(['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys']);

export function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

/** The script with unknown shebang flags removed; the same string when there is nothing to remove. */
export function rewriteShebang(script: string): string {
  const match = /^#!lua([^\n]*)/.exec(script);
  if (!match) return script;
  const options = match[1]!.trim().split(/\s+/).filter(Boolean);
  let changed = false;
  const kept = options.flatMap((option) => {
    if (!option.startsWith('flags=')) return [option];
    const flags = option.slice('flags='.length).split(',').filter(Boolean);
    const known = flags.filter((flag) => redis70Flags.has(flag));
    if (known.length !== flags.length) changed = true;
    return known.length ? [`flags=${known.join(',')}`] : [];
  });
  if (!changed) return script;
  // Keep the shebang itself: without one Redis runs the script in its older, laxer mode.
  return `#!lua${kept.length ? ` ${kept.join(' ')}` : ''}${script.slice(match[0].length)}`;
}

/**
 * Remembers which SHA-1 Redis knows each rewritten script by, so clients can keep calling
 * EVALSHA with the SHA-1 of the script they sent (the one @upstash/ratelimit has built in).
 */
export class ScriptShas {
  private readonly serverSha = new Map<string, string>();

  /** The script to send to Redis in place of `script`; remembers the SHA mapping if it differs. */
  prepare(script: string): { script: string; originalSha: string } {
    const originalSha = sha1(script);
    const rewritten = rewriteShebang(script);
    if (rewritten !== script) this.serverSha.set(originalSha, sha1(rewritten));
    return { script: rewritten, originalSha };
  }

  /** The SHA-1 Redis knows for a client's SHA-1; unknown ones pass through (and get NOSCRIPT). */
  toServer(sha: string): string {
    return this.serverSha.get(sha.toLowerCase()) ?? sha;
  }
}
