/**
 * The embedded server as a user runs it (local/embedded-server.ts), and the `curl` lines it prints,
 * read and run as a user would run them.
 */
export { freePort, projectRoot, type ServerRun, spawnServer, startServer, userEnvironment, waitForListening } from '../../local/embedded-server.js';

/** Splits a shell command line into words: single and double quotes, backslash escapes outside them. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === "'" || char === '"') {
      const close = line.indexOf(char, i + 1);
      if (close < 0) throw new Error(`Unclosed quote in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, close);
      i = close;
    } else if (char === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

export type CurlRequest = { url: string; method: string; headers: Record<string, string>; body?: string };

/** What a printed `curl` line asks for, reading only the options the server prints. */
export function parseCurl(line: string): CurlRequest {
  const [command, ...args] = shellWords(line.trim());
  if (command !== 'curl') throw new Error(`Not a curl line: ${line}`);
  const request: Partial<CurlRequest> & { headers: Record<string, string> } = { headers: {} };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-s' || arg === '--silent') continue;
    else if (arg === '-X' || arg === '--request') request.method = args[++i];
    else if (arg === '-H' || arg === '--header') {
      const header = args[++i]!;
      const colon = header.indexOf(':');
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (arg === '-d' || arg === '--data' || arg === '--data-raw') request.body = args[++i];
    else if (arg.startsWith('-')) throw new Error(`The test does not know the curl option ${arg}`);
    else request.url = arg;
  }
  if (!request.url) throw new Error(`No URL in: ${line}`);
  // curl sends POST when given a body, GET otherwise.
  return { ...request, url: request.url, method: request.method ?? (request.body === undefined ? 'GET' : 'POST') };
}

/** Runs a printed curl line with fetch, and parses the JSON answer. */
export async function runCurl(line: string): Promise<{ status: number; body: any }> {
  const request = parseCurl(line);
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
