import { sql } from 'drizzle-orm';

export type Page<T> = {
  data: T[];
  pagination: { page: number; per_page: number; total: number; total_pages: number };
};

export const pageOffset = (page: number, perPage: number) => (page - 1) * perPage;

/** The list shape (docs/api-reference.md, section 2.7): `total_pages` is 0 for an empty list, and a page past the end is empty. */
export function toPage<T>(data: T[], total: number, page: number, perPage: number): Page<T> {
  return { data, pagination: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) } };
}

/** A column every row of a page carries: how many rows the query matches before LIMIT and OFFSET. */
export const totalOfAll = () => sql<number>`count(*) over ()`.mapWith(Number);

/**
 * One page of a list from one query whose rows carry `total` (totalOfAll), so the page and the
 * count come in one round trip: every list of the service, public and admin, reads its pages so.
 * A page past the end has no row to carry it: only then is `countAll` asked.
 */
export async function pageWithTotal<Row extends { total: number }, T>(
  rows: Row[],
  toRecord: (row: Row) => T,
  page: number,
  perPage: number,
  countAll: () => PromiseLike<{ total: number }[]>,
): Promise<Page<T>> {
  const total = rows[0]?.total ?? (page > 1 ? ((await countAll())[0]?.total ?? 0) : 0);
  return toPage(rows.map(toRecord), total, page, perPage);
}
