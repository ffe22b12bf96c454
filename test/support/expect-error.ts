/**
 * Every error answer of the API has one shape, `{ error: { code, message, details } }` as JSON,
 * and gives nothing of the inside away (no stack, no source path). These helpers assert it, for an
 * answer of `call` (support/http.ts) and for a raw Response (the Worker inside workerd).
 */
import { expect } from 'vitest';
import type { Answer } from './http.js';

export type ErrorBody = { error: { code: string; message: string; details: Record<string, unknown> } };

/** What an error body must never show: a stack frame, a source file, a thrown error's name. */
const INTERNALS = /"stack"|\bat .*\.(ts|js):\d+|node_modules|Error:/;

/**
 * Asserts an error answer: its status, JSON content type, the one error shape with this code and,
 * when `paths` is given (`validation_failed`), exactly these issue paths in any order.
 */
export function expectError(answer: Answer, status: number, code: string, paths?: string[]): ErrorBody {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expectErrorShape(answer.headers, answer.body, code, paths);
  return answer.body as ErrorBody;
}

/** The same assertions for a Response, whose body is read here; answers the parsed body. */
export async function expectErrorResponse(response: Response, status: number, code: string, paths?: string[]): Promise<ErrorBody> {
  const body: unknown = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(status);
  expectErrorShape(response.headers, body, code, paths);
  return body as ErrorBody;
}

/** The issue paths of a `validation_failed` answer, in the order given (none for other errors). */
export const issuePaths = (answer: Answer): string[] => (answer.body?.error?.details?.issues ?? []).map((issue: { path: string }) => issue.path);

function expectErrorShape(headers: Headers, body: unknown, code: string, paths?: string[]) {
  expect(headers.get('content-type')).toMatch(/^application\/json/);
  expect(body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object) } });
  expect(JSON.stringify(body)).not.toMatch(INTERNALS);
  if (paths) {
    const issues = (body as ErrorBody).error.details.issues as { path: string }[];
    expect(issues.map((issue) => issue.path).sort()).toEqual([...paths].sort());
  }
}
