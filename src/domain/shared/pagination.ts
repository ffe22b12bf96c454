export type Page<T> = {
  data: T[];
  pagination: { page: number; per_page: number; total: number; total_pages: number };
};

export const pageOffset = (page: number, perPage: number) => (page - 1) * perPage;

/** The list shape of spec 2.7: `total_pages` is 0 for an empty list, and a page past the end is empty. */
export function toPage<T>(data: T[], total: number, page: number, perPage: number): Page<T> {
  return { data, pagination: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) } };
}
