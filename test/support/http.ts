import type { TestStack } from './stack.js';

export type Call = {
  token?: string;
  body?: unknown;
  /** A raw body sent as is (malformed JSON, huge payloads). */
  rawBody?: string | Uint8Array | FormData;
  headers?: Record<string, string>;
};

export type Answer<T = any> = { status: number; body: T; headers: Headers };

/** One request to the app, as a client would send it, and its answer with the body parsed. */
export async function call<T = any>(stack: TestStack, method: string, path: string, options: Call = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody as BodyInit;
  else if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }
  // An execution context as Workers give one: what the request leaves running is awaited on close.
  const executionCtx = {
    waitUntil: (work: Promise<unknown>) => {
      const tracked = work.finally(() => stack.afterAnswers?.delete(tracked));
      stack.afterAnswers?.add(tracked);
    },
    passThroughOnException: () => {},
    props: {},
  };
  const response = await stack.app.request(path, { method, headers, body }, undefined, executionCtx);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (the dev mailbox page): the text is the body.
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** Asserts nothing by itself: the error code of an answer, for compact expectations. */
export const errorCode = (answer: Answer) => (answer.body as { error?: { code?: string } })?.error?.code;
