import pg from 'pg';
import { openNodePostgresDatabase } from '../../src/adapters/postgres/node-postgres-database.js';

/** Makes a fresh database for this run on the server of TEST_POSTGRES_URL and migrates it. */
export default async function setup({ provide }: { provide: (key: string, value: string) => void }) {
  const server = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `esign_test_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openNodePostgresDatabase(url.toString());
  await database.close();
  provide('databaseUrl', url.toString());

  return async () => {
    const cleanup = new pg.Client({ connectionString: server });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
