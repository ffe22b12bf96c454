/**
 * Every list reads a page the same way (src/domain/shared/pagination.ts): one query whose rows
 * carry the count of all, and a second query only for a page past the end, which has no row to
 * carry it. The admin lists and the dead jobs are held to it here, counted at the database port.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listApiKeys, listCompanies, listEnvelopes, listUsers } from '../../src/domain/companies/list-company-records.js';
import type { Page } from '../../src/domain/shared/pagination.js';
import { listDeadJobs } from '../../src/queue/dead-jobs.js';
import { asOperator } from '../support/factories.js';
import { openStack, type TestStack } from '../support/stack.js';
import { adminCompany, adminKey, adminUser } from './admin-support.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await openStack();
});
afterAll(() => stack.close());

/** The page a list answers, and how many queries it sent to the database for it. */
async function read<T>(list: () => Promise<Page<T>>) {
  const { session } = stack.services.database.db as unknown as { session: { prepareQuery: (...args: never[]) => unknown } };
  const queries = vi.spyOn(session, 'prepareQuery');
  try {
    const page = await list();
    return { pagination: page.pagination, rows: page.data.length, queries: queries.mock.calls.length };
  } finally {
    queries.mockRestore();
  }
}

describe('a page of an admin list', () => {
  it("of a company's users and API keys is one query, and a page past the end one more for the count", async () => {
    const company = await adminCompany(stack);
    const owner = await adminUser(stack, company.id, 'owner');
    await adminUser(stack, company.id, 'viewer');
    await adminKey(stack, company.id, owner.email);
    await adminKey(stack, company.id, owner.email);
    await adminKey(stack, company.id, owner.email);
    const ctx = asOperator(stack, company.id);

    expect(await read(() => listUsers(ctx, { page: 1, perPage: 25 }))).toEqual({
      pagination: { page: 1, per_page: 25, total: 2, total_pages: 1 },
      rows: 2,
      queries: 1,
    });
    expect(await read(() => listUsers(ctx, { page: 2, perPage: 1 }))).toEqual({
      pagination: { page: 2, per_page: 1, total: 2, total_pages: 2 },
      rows: 1,
      queries: 1,
    });
    expect(await read(() => listUsers(ctx, { page: 3, perPage: 1 }))).toEqual({
      pagination: { page: 3, per_page: 1, total: 2, total_pages: 2 },
      rows: 0,
      queries: 2,
    });

    expect(await read(() => listApiKeys(ctx, { page: 1, perPage: 2 }))).toEqual({
      pagination: { page: 1, per_page: 2, total: 3, total_pages: 2 },
      rows: 2,
      queries: 1,
    });
    expect(await read(() => listApiKeys(ctx, { page: 2, perPage: 2 }))).toEqual({
      pagination: { page: 2, per_page: 2, total: 3, total_pages: 2 },
      rows: 1,
      queries: 1,
    });
    expect(await read(() => listApiKeys(ctx, { page: 3, perPage: 2 }))).toEqual({
      pagination: { page: 3, per_page: 2, total: 3, total_pages: 2 },
      rows: 0,
      queries: 2,
    });
  });

  it('of an empty list is one query on its first page, and counts on a later one', async () => {
    const company = await adminCompany(stack);
    const ctx = asOperator(stack, company.id);
    const empty = (page: number) => ({ pagination: { page, per_page: 25, total: 0, total_pages: 0 }, rows: 0 });
    expect(await read(() => listEnvelopes(ctx, { page: 1, perPage: 25 }))).toEqual({ ...empty(1), queries: 1 });
    expect(await read(() => listEnvelopes(ctx, { page: 2, perPage: 25 }))).toEqual({ ...empty(2), queries: 2 });
    expect(await read(() => listUsers(ctx, { page: 1, perPage: 25 }))).toEqual({ ...empty(1), queries: 1 });
  });

  it('of every company, and of the dead jobs, is one query while the page holds rows', async () => {
    await adminCompany(stack);
    const first = await read(() => listCompanies(asOperator(stack), { page: 1, perPage: 1 }));
    expect(first).toMatchObject({ rows: 1, queries: 1 });
    expect(first.pagination.total).toBeGreaterThanOrEqual(1);
    // Far past the end: other files add companies meanwhile (the integration run shares one database).
    const pastTheEnd = await read(() => listCompanies(asOperator(stack), { page: 1_000_000, perPage: 1 }));
    expect(pastTheEnd).toMatchObject({ rows: 0, queries: 2 });
    expect(pastTheEnd.pagination.total).toBeGreaterThanOrEqual(first.pagination.total);

    const jobs = await read(() => listDeadJobs(asOperator(stack), { page: 1, perPage: 100 }));
    expect(jobs).toMatchObject({ rows: Math.min(jobs.pagination.total, 100), queries: 1 });
    expect(await read(() => listDeadJobs(asOperator(stack), { page: 1_000_000, perPage: 100 }))).toMatchObject({ rows: 0, queries: 2 });
  });
});
