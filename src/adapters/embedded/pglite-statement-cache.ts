/**
 * PGlite's `query` speaks the extended protocol in six separate exchanges (parse, describe the
 * statement, bind, describe the portal, execute, sync) and parses and plans the SQL every time.
 * For the embedded server that protocol work and planning is most of a statement's cost, and the
 * same few dozen statements run again and again. This client keeps each statement with
 * parameters prepared under a name, with its parameter types, and runs it again in one exchange:
 * bind, describe, execute and sync. Values are serialised by PGlite's own serialisers for the
 * parameter types Postgres reported, and rows parsed by its parsers, so results are the same as
 * PGlite's `query`; drizzle uses it as it would PGlite.
 */
import { type PGlite, type QueryOptions, type Results, type Transaction, messages, parse, protocol } from '@electric-sql/pglite';

/** Prepared statements kept at most: statements differ by their number of rows or ids, so this bounds them. */
const MAX_STATEMENTS = 256;
/** SQLSTATE feature_not_supported: "cached plan must not change result type" after a table changed. */
const PLAN_CHANGED = '0A000';

type Prepared = { name: string; paramTypes: number[] };

/** The part of PGlite that drizzle's PGlite driver calls. */
export type PgliteClient = {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  transaction<T>(callback: (tx: PgliteClient) => Promise<T>): Promise<T>;
};

/** Statement names belong to the connection: every client over one PGlite shares its cache. */
const caches = new WeakMap<PGlite, { prepared: Map<string, Prepared>; next: number }>();

export function statementCachingClient(pg: PGlite): PgliteClient {
  const cache = caches.get(pg) ?? { prepared: new Map<string, Prepared>(), next: 0 };
  caches.set(pg, cache);
  const { prepared } = cache;

  async function exchange(parts: Uint8Array[]): Promise<messages.BackendMessage[]> {
    return pg.execProtocolStream(concat([...parts, protocol.serialize.sync()]), { syncToFs: false, throwOnError: false });
  }

  /** Parses a statement under a name once and learns its parameters' types. */
  async function prepare(text: string): Promise<Prepared> {
    const known = prepared.get(text);
    if (known) {
      // Most recently used last, so that the oldest goes first when the cache is full.
      prepared.delete(text);
      prepared.set(text, known);
      return known;
    }
    if (prepared.size >= MAX_STATEMENTS) {
      const [oldestText, oldest] = prepared.entries().next().value!;
      prepared.delete(oldestText);
      await exchange([protocol.serialize.close({ type: 'S', name: oldest.name })]);
    }
    const name = `s${++cache.next}`;
    const answer = await exchange([protocol.serialize.parse({ name, text, types: [] }), protocol.serialize.describe({ type: 'S', name })]);
    failOn(answer);
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(answer) };
    prepared.set(text, statement);
    return statement;
  }

  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    try {
      let answer: messages.BackendMessage[];
      if (params.length === 0) {
        // Nothing to serialise: the unnamed statement, in one exchange (migrations, fixed SQL).
        answer = await exchange([
          protocol.serialize.parse({ text, types: [] }),
          protocol.serialize.bind({ values: [] }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
        ]);
      } else {
        const statement = await prepare(text);
        const values = params.map((value, i) => serialise(value, statement.paramTypes[i]!, options));
        answer = await exchange([
          protocol.serialize.bind({ statement: statement.name, values }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
        ]);
        const error = answer.find(isError);
        if (error?.code === PLAN_CHANGED) {
          prepared.delete(text);
          await exchange([protocol.serialize.close({ type: 'S', name: statement.name })]);
        }
      }
      failOn(answer);
      if (!inTransaction) await pg.syncToFs();
      return results<T>(answer, options, pg.parsers);
    } catch (err) {
      // As PGlite's own query does, the error says which statement failed.
      if (err instanceof messages.DatabaseError) Object.assign(err, { query: text, params, queryOptions: options });
      throw err;
    }

    function serialise(value: unknown, type: number, opts: QueryOptions | undefined): string | null {
      if (value === null || value === undefined) return null;
      const serializer = opts?.serializers?.[type] ?? pg.serializers[type];
      return serializer ? serializer(value) : String(value);
    }
  }

  return {
    // Outside a transaction a statement waits for any transaction to end, as PGlite's query does.
    query: async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
      await pg._checkReady();
      return pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => run<T>(text, params, options, false)));
    },
    transaction: <T>(callback: (tx: PgliteClient) => Promise<T>) =>
      pg.transaction((tx: Transaction) =>
        callback({
          query: <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
            if (tx.closed) return Promise.reject(new Error('Transaction is closed'));
            return pg._runExclusiveQuery(() => run<R>(text, params, options, true));
          },
          // drizzle nests transactions as savepoints, through `query`.
          transaction: () => Promise.reject(new Error('PGlite has no nested transactions')),
        }),
      ),
  };
}

/**
 * The rows of one statement's answer, as PGlite's `parseResults` gives them, but looking up one
 * parser per column: that function merges a query's parsers into PGlite's 318 on every call,
 * which cost more than the rest of a small query's parsing.
 */
function results<T>(answer: messages.BackendMessage[], options: QueryOptions | undefined, parsers: Record<number, (value: string, type: number) => unknown>): Results<T> {
  let fields: { name: string; dataTypeID: number }[] = [];
  let columnParsers: (((value: string, type: number) => unknown) | undefined)[] = [];
  const rows: unknown[] = [];
  for (const message of answer) {
    if (message instanceof messages.RowDescriptionMessage) {
      fields = message.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID }));
      columnParsers = fields.map((field) => options?.parsers?.[field.dataTypeID] ?? parsers[field.dataTypeID]);
    } else if (message instanceof messages.DataRowMessage) {
      const values = message.fields.map((value, i) => {
        if (value === null) return null;
        const parser = columnParsers[i];
        return parser ? parser(value, fields[i]!.dataTypeID) : value;
      });
      rows.push(options?.rowMode === 'array' ? values : Object.fromEntries(values.map((value, i) => [fields[i]!.name, value])));
    } else if (message instanceof messages.CommandCompleteMessage) {
      const words = message.text.split(' ');
      const command = words[0]!;
      const count = Number.parseInt(words.at(-1)!, 10);
      const affectedRows = ['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command) ? count : 0;
      return { rows, fields, command, affectedRows, ...(Number.isNaN(count) ? {} : { rowCount: count }) } as Results<T>;
    }
  }
  return { rows: rows as T[], fields, affectedRows: 0 };
}

function isError(message: messages.BackendMessage): message is messages.DatabaseError {
  return message instanceof messages.DatabaseError;
}

function failOn(answer: messages.BackendMessage[]): void {
  const error = answer.find(isError);
  if (error) throw error;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
