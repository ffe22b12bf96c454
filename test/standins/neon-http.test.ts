import { PGlite } from '@electric-sql/pglite';
import { pgliteExecutor } from '../../local/standins/sql-executors.js';
import { describeNeonHttpStandin } from './neon-http-suite.js';

// The fast suite: the stand-in over an in-memory PGlite, no services needed.
describeNeonHttpStandin('Neon SQL-over-HTTP stand-in over PGlite', async () => pgliteExecutor(new PGlite(), { closeDbOnClose: true }));
