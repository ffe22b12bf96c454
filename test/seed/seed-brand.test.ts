/**
 * A seed's brand: display name, accent colour and a logo file beside the seed, set when the
 * company is made, checked like the admin API's, and left alone when the seed is loaded again.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBrand, putBrand } from '../../src/domain/companies/brand.js';
import { DomainError } from '../../src/errors.js';
import { loadSeed } from '../../src/seed/load-seed.js';
import { asOperator } from '../support/factories.js';
import { logoPng, svgLogo } from '../support/logo-images.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let dir: string;
beforeAll(async () => {
  stack = await openStack();
  dir = await mkdtemp(join(tmpdir(), 'seed-brand-'));
  await writeFile(join(dir, 'logo.png'), logoPng());
  await writeFile(join(dir, 'logo.svg'), svgLogo);
});
afterAll(async () => {
  await stack.close();
  await rm(dir, { recursive: true, force: true });
});

const seedOf = (id: string, brand: Record<string, unknown>) => ({
  companies: [{ id, name: `Seeded ${id.slice(0, 8)}`, api_signature_requests_per_period: 5, brand }],
});

async function issuesOf(load: Promise<unknown>) {
  const err = await load.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(err).toBeInstanceOf(DomainError);
  return ((err as DomainError).details.issues as { path: string }[]).map((issue) => issue.path);
}

describe('a seed with a brand', () => {
  it('sets the display name, accent colour and logo of a new company, and leaves them alone on a second load', async () => {
    const id = crypto.randomUUID();
    const seed = seedOf(id, { default_email_message: 'Hi', display_name: 'Seeded Legal', accent_color: '#A1B2C3', logo: { path: 'logo.png' } });
    await loadSeed(stack.services, seed, dir);
    const brand = await getBrand(asOperator(stack, id));
    expect(brand).toMatchObject({ display_name: 'Seeded Legal', accent_color: '#a1b2c3', default_email_message: 'Hi', logo: { type: 'image/png' } });

    await putBrand(asOperator(stack, id), { display_name: 'Changed since' });
    await loadSeed(stack.services, seed, dir);
    expect((await getBrand(asOperator(stack, id))).display_name).toBe('Changed since');
  });

  it('refuses, with the path, a logo that is not a PNG or JPEG, a missing file, a bad colour and a two-line name', async () => {
    const refused = seedOf(crypto.randomUUID(), { display_name: 'Fixed later', logo: { path: 'logo.svg' } });
    expect(await issuesOf(loadSeed(stack.services, refused, dir))).toEqual(['companies[0].brand.logo']);
    // Nothing of that company was made, so the corrected seed makes it with its brand.
    refused.companies[0]!.brand.logo = { path: 'logo.png' };
    await loadSeed(stack.services, refused, dir);
    expect(await getBrand(asOperator(stack, refused.companies[0]!.id))).toMatchObject({ display_name: 'Fixed later', logo: { type: 'image/png' } });
    expect(await issuesOf(loadSeed(stack.services, seedOf(crypto.randomUUID(), { logo: { path: 'missing.png' } }), dir))).toEqual([
      'companies[0].brand.logo.path',
    ]);
    expect(await issuesOf(loadSeed(stack.services, seedOf(crypto.randomUUID(), { accent_color: 'blue' }), dir))).toEqual(['companies[0].brand.accent_color']);
    expect(await issuesOf(loadSeed(stack.services, seedOf(crypto.randomUUID(), { display_name: 'Two\nlines' }), dir))).toEqual([
      'companies[0].brand.display_name',
    ]);
    expect(await issuesOf(loadSeed(stack.services, seedOf(crypto.randomUUID(), { display_name: 'n'.repeat(101) }), dir))).toEqual([
      'companies[0].brand.display_name',
    ]);
  });
});
