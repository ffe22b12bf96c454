import { type PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, surviveLostConnections } from '../../src/adapters/postgres/lost-connections.js';

/**
 * What the Neon SQL-over-HTTP stand-in needs from a database: run one statement, or several in one
 * transaction on one connection, and hand back every value as Postgres prints it (text format).
 * The Neon driver parses that text itself, by each field's dataTypeID, exactly as it does against Neon.
 */
export type SqlParam = string | null;

export interface SqlStatement {
  text: string;
  params: SqlParam[];
}

export interface SqlField {
  name: string;
  tableID: number;
  columnID: number;
  dataTypeID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
  format: 'text';
}

export interface SqlResult {
  command: string;
  rowCount: number | null;
  fields: SqlField[];
  rows: (string | null)[][];
}

/** The values @neondatabase/serverless sends in `Neon-Batch-Isolation-Level`. */
export type IsolationLevel = 'ReadUncommitted' | 'ReadCommitted' | 'RepeatableRead' | 'Serializable';

export interface TransactionMode {
  isolationLevel?: IsolationLevel;
  readOnly?: boolean;
  deferrable?: boolean;
}

export interface SqlExecutor {
  query(statement: SqlStatement): Promise<SqlResult>;
  /** All statements in one transaction; any error rolls all of them back and is rethrown. */
  transaction(statements: SqlStatement[], mode: TransactionMode): Promise<SqlResult[]>;
  close(): Promise<void>;
}

const isolationSql: Record<IsolationLevel, string> = {
  ReadUncommitted: 'ISOLATION LEVEL READ UNCOMMITTED',
  ReadCommitted: 'ISOLATION LEVEL READ COMMITTED',
  RepeatableRead: 'ISOLATION LEVEL REPEATABLE READ',
  Serializable: 'ISOLATION LEVEL SERIALIZABLE',
};

/** The transaction_mode list shared by BEGIN and SET TRANSACTION. */
export function transactionModeSql(mode: TransactionMode): string {
  const parts: string[] = [];
  if (mode.isolationLevel) parts.push(isolationSql[mode.isolationLevel]);
  if (mode.readOnly !== undefined) parts.push(mode.readOnly ? 'READ ONLY' : 'READ WRITE');
  if (mode.deferrable !== undefined) parts.push(mode.deferrable ? 'DEFERRABLE' : 'NOT DEFERRABLE');
  return parts.join(' ');
}

// pg would otherwise turn values into JS types; the stand-in must pass Postgres text through untouched.
const keepText = { getTypeParser: () => (value: string) => value };

/**
 * Over a pg.Pool (a real PostgreSQL). Statements always use the extended protocol, as Neon's proxy
 * does, so a multi-statement string is rejected here just as it is by Neon.
 */
export function pgPoolExecutor(pool: pg.Pool, options: { endPoolOnClose?: boolean } = {}): SqlExecutor {
  const run = async (client: pg.Pool | pg.PoolClient, statement: SqlStatement): Promise<SqlResult> => {
    const result = await client.query({
      text: statement.text,
      values: statement.params,
      rowMode: 'array',
      types: keepText,
      queryMode: 'extended',
    } as pg.QueryArrayConfig);
    return {
      command: result.command,
      rowCount: result.rowCount,
      fields: result.fields.map((f) => ({
        name: f.name,
        tableID: f.tableID,
        columnID: f.columnID,
        dataTypeID: f.dataTypeID,
        dataTypeSize: f.dataTypeSize,
        dataTypeModifier: f.dataTypeModifier,
        format: 'text',
      })),
      rows: result.rows as (string | null)[][],
    };
  };
  return {
    query: (statement) => run(pool, statement),
    async transaction(statements, mode) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query(`BEGIN ${transactionModeSql(mode)}`);
        const results: SqlResult[] = [];
        for (const statement of statements) results.push(await run(client, statement));
        await client.query('COMMIT');
        return results;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        // A connection whose ROLLBACK failed is in an unknown state: drop it instead of reusing it.
        client.release(broken);
      }
    },
    close: async () => {
      if (options.endPoolOnClose) await pool.end();
    },
  };
}

/** A pg.Pool for the stand-in: UTC session time zone, as Neon's databases default to, unless the URL says otherwise. */
export function createStandinPool(postgresUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: postgresUrl, options: '-c TimeZone=UTC', max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  return surviveLostConnections(pool, 'Neon stand-in');
}

// PGlite looks parsers and serializers up by type OID, falling back to its own built-in ones (which
// make JS values, and refuse a hex string for bytea). Overriding each built-in one with the identity
// keeps text going in and out as is; types without a built-in parser are passed through already.
const textParsers = Object.fromEntries(Object.keys(pgliteTypes.parsers).map((oid) => [oid, (value: string) => value]));
const textSerializers = Object.fromEntries(Object.keys(pgliteTypes.serializers).map((oid) => [oid, (value: unknown) => String(value)]));

/**
 * Over a PGlite instance (when no PostgreSQL runs). PGlite is one connection; its own locks make a
 * request wait while another request's transaction is open, so batches never interleave.
 */
export function pgliteExecutor(db: PGlite, options: { closeDbOnClose?: boolean } = {}): SqlExecutor {
  type Runner = Pick<PGlite, 'query'>;
  const run = async (runner: Runner, statement: SqlStatement): Promise<SqlResult> => {
    const result = await runner.query<unknown[]>(statement.text, statement.params, {
      rowMode: 'array',
      parsers: textParsers,
      serializers: textSerializers,
    });
    return {
      command: result.command ?? '',
      rowCount: result.rowCount ?? null,
      // PGlite reports only name and type; the driver needs no more, the rest mirrors pg's "unknown".
      fields: result.fields.map((f) => ({
        name: f.name,
        tableID: 0,
        columnID: 0,
        dataTypeID: f.dataTypeID,
        dataTypeSize: -1,
        dataTypeModifier: -1,
        format: 'text',
      })),
      rows: result.rows as unknown as (string | null)[][],
    };
  };
  let zoneSet: Promise<unknown> | undefined;
  const ready = () => (zoneSet ??= db.query(`SET TIME ZONE 'UTC'`));
  return {
    async query(statement) {
      await ready();
      return run(db, statement);
    },
    async transaction(statements, mode) {
      await ready();
      return db.transaction(async (tx) => {
        const modeSql = transactionModeSql(mode);
        if (modeSql) await tx.query(`SET TRANSACTION ${modeSql}`);
        const results: SqlResult[] = [];
        for (const statement of statements) results.push(await run(tx, statement));
        return results;
      });
    },
    close: async () => {
      if (options.closeDbOnClose) await db.close();
    },
  };
}
