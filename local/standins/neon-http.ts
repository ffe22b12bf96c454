import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { isDatabaseUnreachable } from '../../src/data/errors.js';
import type { Standin } from './standin.js';
import type { IsolationLevel, SqlExecutor, SqlParam, SqlResult, SqlStatement, TransactionMode } from './sql-executors.js';

/**
 * A stand-in for Neon's SQL-over-HTTP endpoint (`POST /sql`), as @neondatabase/serverless 1.2 calls it
 * from `neon()` and drizzle's neon-http driver. Local only; never deployed.
 *
 * - `{ query, params }` runs one statement (autocommit) and answers one result;
 *   `{ queries: [...] }` runs them all in ONE transaction and answers `{ results: [...] }`.
 * - Results are `{ command, rowCount, fields, rows, rowAsArray }`; each value is the Postgres text
 *   form (or null), and the driver parses it by `fields[i].dataTypeID`.
 * - A database error answers 400 with the Postgres error fields (`code` = SQLSTATE), which the driver
 *   copies onto the NeonDbError it throws.
 * - Neon's limits of 64 MiB on a request's body and on an answer, with its proxy's answers
 *   (sql_over_http.rs): 413 `request is too large (max is N bytes)` and 507 `response is too large
 *   (max is N bytes)`, each as `{ message }`. A document kept in Postgres would meet them first.
 */
export function createNeonHttpStandin(executor: SqlExecutor, limits: Partial<NeonHttpLimits> = {}): Standin {
  const { maxRequestBytes, maxResponseBytes } = { ...NEON_HTTP_LIMITS, ...limits };
  const app = new Hono();
  app.post(
    '/sql',
    bodyLimit({ maxSize: maxRequestBytes, onError: (c) => c.json({ message: `request is too large (max is ${maxRequestBytes} bytes)` }, 413) }),
    async (c) => {
      if (!c.req.header('Neon-Connection-String')) {
        return c.json({ message: 'missing Neon-Connection-String header' }, 400);
      }
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return c.json({ message: 'request body is not valid JSON' }, 400);
      }
      // The driver always sends both as "true"; the other modes are kept for hand-made requests.
      const arrayMode = c.req.header('Neon-Array-Mode') === 'true';
      const rawText = c.req.header('Neon-Raw-Text-Output') === 'true';
      const render = (result: SqlResult) => renderResult(result, arrayMode, rawText);
      try {
        if (isBatch(body)) {
          const statements = body.queries.map(toStatement);
          const results = await executor.transaction(
            statements,
            batchMode((name) => c.req.header(name)),
          );
          return answer({ results: results.map(render) }, maxResponseBytes);
        }
        return answer(render(await executor.query(toStatement(body))), maxResponseBytes);
      } catch (error) {
        return errorResponse(error);
      }
    },
  );
  app.notFound((c) => c.json({ message: `no route for ${c.req.method} ${c.req.path}` }, 404));
  return { fetch: (request) => app.fetch(request), close: () => executor.close() };
}

export type NeonHttpLimits = { maxRequestBytes: number; maxResponseBytes: number };

/** Neon's documented limits of SQL over HTTP: 64 MiB each way. */
export const NEON_HTTP_LIMITS: NeonHttpLimits = { maxRequestBytes: 64 * 1024 * 1024, maxResponseBytes: 64 * 1024 * 1024 };

/** The JSON answer, or Neon's refusal when its body would pass the limit. */
function answer(result: object, maxResponseBytes: number): Response {
  const body = new TextEncoder().encode(JSON.stringify(result));
  if (body.byteLength > maxResponseBytes) return jsonResponse({ message: `response is too large (max is ${maxResponseBytes} bytes)` }, 507);
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

function jsonResponse(body: object, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function isBatch(body: unknown): body is { queries: unknown[] } {
  return typeof body === 'object' && body !== null && Array.isArray((body as { queries?: unknown }).queries);
}

class BadRequest extends Error {}

function toStatement(raw: unknown): SqlStatement {
  const { query, params } = (raw ?? {}) as { query?: unknown; params?: unknown };
  if (typeof query !== 'string') throw new BadRequest('each query needs a "query" string');
  if (params !== undefined && !Array.isArray(params)) throw new BadRequest('"params" must be an array');
  return { text: query, params: (params ?? []).map(toParam) };
}

// The driver sends every parameter already as Postgres text (Dates as ISO strings, bytea as \x hex,
// arrays as array literals); other JSON values are turned into text the way Postgres would read them.
function toParam(value: unknown): SqlParam {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `{${value.map((v) => (v === null ? 'NULL' : JSON.stringify(toParam(v)))).join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const isolationLevels: IsolationLevel[] = ['ReadUncommitted', 'ReadCommitted', 'RepeatableRead', 'Serializable'];

function batchMode(header: (name: string) => string | undefined): TransactionMode {
  const level = header('Neon-Batch-Isolation-Level');
  if (level !== undefined && !isolationLevels.includes(level as IsolationLevel)) {
    throw new BadRequest(`unknown isolation level ${level}`);
  }
  const flag = (name: string) => {
    const value = header(name);
    return value === undefined ? undefined : value === 'true';
  };
  return {
    isolationLevel: level as IsolationLevel | undefined,
    readOnly: flag('Neon-Batch-Read-Only'),
    deferrable: flag('Neon-Batch-Deferrable'),
  };
}

function renderResult(result: SqlResult, arrayMode: boolean, rawText: boolean) {
  const rows = rawText ? result.rows : result.rows.map((row) => row.map((value, i) => jsonValue(value, result.fields[i]?.dataTypeID ?? 0)));
  return {
    command: result.command,
    rowCount: result.rowCount,
    fields: result.fields,
    rowAsArray: arrayMode,
    rows: arrayMode ? rows : rows.map((row) => Object.fromEntries(row.map((value, i) => [result.fields[i]?.name ?? `?column?`, value]))),
  };
}

// Without raw text output Neon turns a few types into JSON values; everything else stays text.
function jsonValue(text: string | null, typeId: number): unknown {
  if (text === null) return null;
  switch (typeId) {
    case 16: // bool
      return text === 't';
    case 21: // int2
    case 23: // int4
    case 700: // float4
    case 701: // float8
      return Number.isFinite(Number(text)) ? Number(text) : text;
    case 114: // json
    case 3802: // jsonb
      return JSON.parse(text);
    default:
      return text;
  }
}

// The fields the driver copies from the body onto its NeonDbError.
const errorFields = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

function errorResponse(error: unknown): Response {
  const json = jsonResponse;
  if (error instanceof BadRequest) return json({ message: error.message }, 400);
  const source = (error ?? {}) as Record<string, unknown>;
  const message = error instanceof Error ? error.message : String(error);
  // A database out of reach is a gateway's failure, not a refused statement: 503, which the
  // Worker's client reports as the database being out of reach, and the Worker answers 503 in turn.
  if (isDatabaseUnreachable(error)) return json({ message: `database unreachable: ${message}` }, 503);
  // A SQLSTATE means Postgres refused the statement: Neon answers those with 400. Anything else
  // (a bug here) is the server's fault, which the driver reports by status.
  if (typeof source.code !== 'string' || !/^[0-9A-Z]{5}$/.test(source.code)) return json({ message }, 500);
  const body: Record<string, unknown> = { message };
  for (const field of errorFields) if (source[field] !== undefined) body[field] = source[field];
  return json(body, 400);
}
