/**
 * Neon's SQL-over-HTTP protocol, spoken directly: the query function drizzle's neon-http session
 * calls, in place of `neon()` from @neondatabase/serverless. That package bundles a whole pg client
 * (146 KiB minified, with its Buffer, stream and crypto shims) for this one POST, and evaluating it
 * took about 11 ms of each isolate's first request (`npm run bench`). The requests and the parsed
 * results are the driver's own, which test/standins/neon-http-client.test.ts checks side by side.
 *
 * - One statement: `POST /sql` with `{ query, params }`; a batch: `{ queries: [...] }`, which Neon
 *   runs as one transaction. Headers: the connection string, raw text output, array mode.
 * - Values come back as Postgres text and are parsed by each field's type, as the driver parses
 *   them with drizzle's settings: timestamps, dates and intervals stay text (drizzle maps them).
 * - Postgres refusing a statement answers 400 with its error fields (`code` is the SQLSTATE).
 */
import { toHex } from '../../lib/crypto.js';

export type NeonQueryOptions = { arrayMode?: boolean; fullResults?: boolean };

export type NeonResult = {
  command: string;
  rowCount: number | null;
  fields: { name: string; dataTypeID: number }[];
  rows: unknown[];
  rowAsArray: boolean;
};

/** The fields Neon's 400 answer carries and the driver copies onto its error. */
const errorFields = [
  'severity', 'code', 'detail', 'hint', 'position', 'internalPosition', 'internalQuery', 'where',
  'schema', 'table', 'column', 'dataType', 'constraint', 'file', 'line', 'routine',
] as const;

export class NeonDbError extends Error {
  override name = 'NeonDbError';
  code?: string;
  detail?: string;
  constraint?: string;
  [field: string]: unknown;
}

/** A statement with its options, sent when awaited (drizzle builds a batch's statements before sending them as one). */
export class NeonQuery implements PromiseLike<unknown> {
  private sent?: Promise<unknown>;
  constructor(
    private readonly client: NeonHttpClient,
    readonly query: string,
    readonly params: unknown[],
    readonly options: NeonQueryOptions,
  ) {}

  then<A = unknown, B = never>(resolve?: ((value: unknown) => A | PromiseLike<A>) | null, reject?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    this.sent ??= this.client.send([this]).then(([result]) => result);
    return this.sent.then(resolve, reject);
  }
}

export type NeonQueryFunction = ((query: string, params?: unknown[], options?: NeonQueryOptions) => NeonQuery) & {
  transaction(queries: NeonQuery[]): Promise<unknown[]>;
};

export class NeonHttpClient {
  private readonly endpoint: string;

  private readonly connectionString: string;

  constructor(connectionString: string, options: { fetchEndpoint?: string } = {}) {
    const url = new URL(connectionString);
    // Named in Neon's monitoring (pg_stat_activity), as the driver names itself, unless the string does.
    if (!url.searchParams.has('application_name')) url.searchParams.set('application_name', 'esign-api');
    this.connectionString = url.toString();
    // Neon's regional API host: the endpoint's first label replaced by `api` (as the driver does).
    this.endpoint = options.fetchEndpoint ?? `https://${url.hostname.replace(/^[^.]+\./, 'api.')}/sql`;
  }

  /** The function drizzle's neon-http session takes as its client. */
  queryFunction(): NeonQueryFunction {
    const query = (text: string, params: unknown[] = [], options: NeonQueryOptions = {}) => new NeonQuery(this, text, params, options);
    return Object.assign(query, { transaction: (queries: NeonQuery[]) => this.send(queries, true) });
  }

  /** One statement on its own, or several as one transaction. */
  async send(queries: NeonQuery[], asTransaction = false): Promise<unknown[]> {
    const encode = (q: NeonQuery) => ({ query: q.query, params: q.params.map(textOf) });
    const body = asTransaction ? { queries: queries.map(encode) } : encode(queries[0]!);
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Neon-Connection-String': this.connectionString, 'Neon-Raw-Text-Output': 'true', 'Neon-Array-Mode': 'true' },
      });
    } catch (error) {
      throw new NeonDbError(`Error connecting to database: ${String(error)}`, { cause: error });
    }
    if (response.status === 400) throw refusal((await response.json()) as Record<string, unknown>);
    if (!response.ok) throw new NeonDbError(`Server error (HTTP status ${response.status}): ${await response.text()}`);
    const json = (await response.json()) as NeonResult | { results: NeonResult[] };
    const results = asTransaction ? (json as { results?: NeonResult[] }).results : [json as NeonResult];
    if (!Array.isArray(results) || results.length !== queries.length) throw new NeonDbError('Neon internal error: unexpected result format');
    return results.map((result, i) => parsed(result, queries[i]!.options));
  }
}

function refusal(body: Record<string, unknown>): NeonDbError {
  const error = new NeonDbError(String(body.message ?? 'The database refused the statement'));
  for (const field of errorFields) if (body[field] !== undefined) Object.assign(error, { [field]: body[field] });
  return error;
}

/** A result's text values parsed by type, as rows of arrays or of objects, whole or rows only. */
function parsed(result: NeonResult, options: NeonQueryOptions): unknown {
  const parsers = result.fields.map((field) => parserOf(field.dataTypeID));
  const names = result.fields.map((field) => field.name);
  const rows = (result.rows as (string | null)[][]).map((row) =>
    options.arrayMode
      ? row.map((value, i) => (value === null ? null : parsers[i]!(value)))
      : Object.fromEntries(row.map((value, i) => [names[i], value === null ? null : parsers[i]!(value)])),
  );
  return options.fullResults ? { ...result, rows, rowAsArray: options.arrayMode === true } : rows;
}

const asText = (value: string) => value;

/** The driver's parsers for the types the service reads; any other type stays Postgres text. */
function parserOf(typeId: number): (value: string) => unknown {
  switch (typeId) {
    case 16: // bool
      return (value) => value === 'TRUE' || value === 't' || value === 'true' || value === 'y' || value === 'yes' || value === 'on' || value === '1';
    case 21: // int2
    case 23: // int4
    case 26: // oid
      return (value) => Number.parseInt(value, 10);
    case 700: // float4
    case 701: // float8
      return Number.parseFloat;
    case 114: // json
    case 3802: // jsonb
      return (value) => JSON.parse(value) as unknown;
    default:
      // int8 and numeric stay text (no precision lost), as do timestamps, dates and intervals; so
      // does bytea (`\x…`), which the schema's bytea column decodes (src/data/schema.ts).
      return asText;
  }
}

/** A parameter as Postgres text, as node-postgres prepares values (which the driver uses). */
function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return `\\x${toHex(value)}`;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function arrayLiteral(values: unknown[]): string {
  const element = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return arrayLiteral(value);
    return `"${textOf(value)!.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  };
  return `{${values.map(element).join(',')}}`;
}
