import { fileURLToPath } from 'node:url';

/** The drizzle-kit output folder, applied the same way on PGlite and on a real PostgreSQL. */
export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
