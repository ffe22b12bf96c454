import { createStandinPool, pgPoolExecutor } from '../../../local/standins/sql-executors.js';
import { describeNeonHttpStandin } from '../../standins/neon-http-suite.js';

// The same checks over the machine's real PostgreSQL; the suite makes and drops its own table.
const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describeNeonHttpStandin('Neon SQL-over-HTTP stand-in over PostgreSQL', async () => pgPoolExecutor(createStandinPool(postgresUrl), { endPoolOnClose: true }));
