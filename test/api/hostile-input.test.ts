/**
 * Hostile input never gets a 5xx: text Postgres cannot hold (NUL, an unpaired surrogate) and
 * numbers past their bounds are refused with `422 validation_failed` naming the field, before
 * anything is stored; a malformed path id answers exactly like an unknown one; and a token that is
 * signed with our secret but not shaped like ours is `401 unauthorized`.
 *
 * One file although long: one kind of input against every endpoint that takes it, so that a new
 * endpoint is missed by nobody.
 */
import { count, eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, companies, contacts, envelopes, recipients, templates, users } from '../../src/data/schema.js';
import { isDataException } from '../../src/data/errors.js';
import { MAX_PAGE } from '../../src/http/schemas.js';
import { MAX_FIELD_PAGE, MAX_PAGE_POINTS } from '../../src/domain/templates/template-definition.js';
import { MAX_TEMPLATE_JSON } from '../../functions/admin/import-template.js';
import { admin } from '../admin/admin-support.js';
import { expectError } from '../support/expect-error.js';
import { createTestCompany, createTestTemplate, ndaDefinition, type TestCompany } from '../support/factories.js';
import { type Answer, call } from '../support/http.js';
import { ADMIN_TOKEN, openStack, type TestStack } from '../support/stack.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';
import { unique } from '../support/unique.js';

let stack: TestStack;
let company: TestCompany;
let templateId: string;
let twoPages: Uint8Array;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
  templateId = (await createTestTemplate(stack, company.id)).id;
  twoPages = await generateDocument('Hostile input', 2, nodeFontSource());
});
afterAll(() => stack.close());

/** The two kinds of text Postgres refuses, each put inside an otherwise fine value. */
const hostile = { NUL: '\u0000', 'a lone surrogate': '\ud800' } as const;
const poison = (value: string, bad: string) => (value.includes('@') ? value.replace('@', `${bad}@`) : `${value.slice(0, 1)}${bad}${value.slice(1)}`);

type Path = (string | number)[];
const dotted = (path: Path) => path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');

/** A deep copy of `value` with the string at `path` poisoned. */
function poisonedAt<T>(value: T, path: Path, bad: string): T {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  parent[last] = poison(String(parent[last]), bad);
  return copy as T;
}

const countOf = async (table: typeof contacts | typeof envelopes | typeof recipients | typeof templates | typeof users | typeof apiKeys, companyId: string) =>
  (await stack.services.database.db.select({ n: count() }).from(table).where(eq(table.companyId, companyId)))[0]!.n;
const companyCount = async () => (await stack.services.database.db.select({ n: count() }).from(companies))[0]!.n;

/** For every listed field and both kinds of hostile text: 422 naming exactly that field. */
async function refusesEveryField(fields: Path[], attempt: (path: Path, bad: string) => Promise<Answer>, prefix = '') {
  for (const path of fields) {
    for (const [kind, bad] of Object.entries(hostile)) {
      const answer = await attempt(path, bad);
      const where = `${dotted(path)} with ${kind}`;
      expect(answer.status, `${where}: ${JSON.stringify(answer.body)}`).toBe(422);
      expect(answer.body.error.code, where).toBe('validation_failed');
      // One field, possibly named twice (a poisoned field role is also not a role of the template).
      const paths = new Set(answer.body.error.details.issues.map((issue: { path: string }) => issue.path));
      expect([...paths], where).toEqual([prefix ? `${prefix}.${dotted(path)}`.replace('.[', '[') : dotted(path)]);
    }
  }
}

describe('text Postgres cannot hold: 422 validation_failed with the field, nothing stored', () => {
  it('POST /v1/contacts', async () => {
    const holder = await createTestCompany(stack);
    const body = { name: 'Bob Buyer', email: `bob-${unique()}@example.test`, contact_number: '+1 555 0100' };
    await refusesEveryField([['name'], ['email'], ['contact_number']], (path, bad) =>
      call(stack, 'POST', '/v1/contacts', { token: holder.owner.token, body: poisonedAt(body, path, bad) }),
    );
    expect(await countOf(contacts, holder.id)).toBe(0);
  });

  it('POST /v1/envelopes/from-template', async () => {
    const holder = await createTestCompany(stack);
    const template = await createTestTemplate(stack, holder.id);
    const body = {
      template_id: template.id,
      recipients: [
        { role: 'Client', name: 'Cleo Client', email: `cleo-${unique()}@example.test`, contact_number: '+1 555 0100' },
        { role: 'Witness', name: 'Walt Witness', email: `walt-${unique()}@example.test` },
      ],
      sender_email: holder.owner.ownerEmail,
      title: 'Mutual NDA',
      email_subject: 'Please sign',
      email_message: 'Here it is.',
    };
    const fields: Path[] = [
      ['title'],
      ['email_subject'],
      ['email_message'],
      ['sender_email'],
      ['recipients', 0, 'role'],
      ['recipients', 0, 'name'],
      ['recipients', 0, 'email'],
      ['recipients', 0, 'contact_number'],
    ];
    await refusesEveryField(fields, (path, bad) =>
      call(stack, 'POST', '/v1/envelopes/from-template', { token: holder.owner.token, body: poisonedAt(body, path, bad) }),
    );
    expect([await countOf(envelopes, holder.id), await countOf(recipients, holder.id)]).toEqual([0, 0]);
    // The same body, unpoisoned, is sent: the refusals above were about the text alone.
    expect((await call(stack, 'POST', '/v1/envelopes/from-template', { token: holder.owner.token, body })).status).toBe(201);
  });

  it('POST /v1/auth/token', async () => {
    await refusesEveryField([['api_key']], (path, bad) =>
      call(stack, 'POST', '/v1/auth/token', {
        body: poisonedAt({ api_key: company.owner.key }, path, bad),
        headers: { 'x-test-client-ip': `hostile-${unique()}` },
      }),
    );
  });

  it('POST /admin/v1/companies', async () => {
    const before = await companyCount();
    const body = { name: `Hostile Co ${unique()}`, api_signature_requests_per_period: 5, brand: { default_email_message: 'Please sign.' } };
    await refusesEveryField([['name'], ['brand', 'default_email_message']], (path, bad) =>
      admin(stack, 'POST', '/admin/v1/companies', poisonedAt(body, path, bad)),
    );
    expect(await companyCount()).toBe(before);
  });

  it('PUT /admin/v1/companies/{companyId}/users/{email}, body and path', async () => {
    const holder = await createTestCompany(stack);
    const before = await countOf(users, holder.id);
    await refusesEveryField([['name']], (path, bad) =>
      admin(stack, 'PUT', `/admin/v1/companies/${holder.id}/users/pat-${unique()}@example.test`, poisonedAt({ name: 'Pat', role: 'member' }, path, bad)),
    );
    expectError(
      await admin(stack, 'PUT', `/admin/v1/companies/${holder.id}/users/p%00t@example.test`, { name: 'Pat', role: 'member' }),
      422,
      'validation_failed',
      ['email'],
    );
    expect(await countOf(users, holder.id)).toBe(before);
  });

  it('POST /admin/v1/companies/{companyId}/api-keys', async () => {
    const holder = await createTestCompany(stack);
    const before = await countOf(apiKeys, holder.id);
    const body = { owner: holder.owner.ownerEmail, scopes: ['templates:read'], name: 'CRM' };
    await refusesEveryField([['owner'], ['name']], (path, bad) =>
      admin(stack, 'POST', `/admin/v1/companies/${holder.id}/api-keys`, poisonedAt(body, path, bad)),
    );
    expect(await countOf(apiKeys, holder.id)).toBe(before);
  });

  it('POST /admin/v1/companies/{companyId}/templates: every text of the template JSON, the part itself and the file name', async () => {
    const holder = await createTestCompany(stack);
    const definition = {
      ...ndaDefinition(),
      email_message: 'Please sign.',
      fields: [{ role: 'Client', type: 'text', label: 'Company', page: 1, x: 72, y: 200, width: 200, height: 20, required: false }],
    };
    const fields: Path[] = [
      ['name'],
      ['email_subject'],
      ['email_message'],
      ['roles', 1, 'name'],
      ['roles', 2, 'recipient', 'name'],
      ['roles', 2, 'recipient', 'email'],
      ['fields', 0, 'role'],
      ['fields', 0, 'label'],
    ];
    await refusesEveryField(fields, (path, bad) => importInto(holder.id, importForm(JSON.stringify(poisonedAt(definition, path, bad)))), 'template');
    // The part as sent, not only the JSON inside it: a raw NUL after the JSON.
    expectError(await importInto(holder.id, importForm(`${JSON.stringify(definition)}\u0000`)), 422, 'validation_failed', ['template']);
    expectError(await importInto(holder.id, importForm(JSON.stringify(definition), 'nda\u0000.pdf')), 422, 'validation_failed', ['document']);
    expect(await countOf(templates, holder.id)).toBe(0);
  });

  it('POST /admin/v1/envelopes/{id}/void: the reason', async () => {
    const id = await sendOne();
    await refusesEveryField([['reason']], (path, bad) =>
      call(stack, 'POST', `/admin/v1/envelopes/${id}/void`, { token: ADMIN_TOKEN, body: poisonedAt({ reason: 'Wrong client' }, path, bad) }),
    );
    const [row] = await stack.services.database.db.select({ status: envelopes.status }).from(envelopes).where(eq(envelopes.id, id));
    expect(row?.status).toBe('sent');
  });

  it('takes text that is merely unusual: emoji (a surrogate pair), right-to-left marks (control characters are refused in names: header-bound-text.test.ts)', async () => {
    const answer = await call(stack, 'POST', '/v1/contacts', {
      token: company.owner.token,
      body: { name: 'Zoë 😀 \u200f', email: `zoe-${unique()}@example.test` },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.name).toBe('Zoë 😀 \u200f');
  });
});

describe('malformed path ids answer exactly like unknown ones', () => {
  /** The 404 for `malformed` is the 404 for `unknown`, with the id it echoes being the one sent. */
  async function expectSameNotFound(request: (id: string) => Promise<Answer>, unknownId: string, malformed: string[], code: string) {
    const unknown = await request(unknownId);
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
    expect(unknown.body.error.code).toBe(code);
    for (const raw of malformed) {
      const sent = decodedLikeTheRouter(raw);
      const echo = (details: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(details).map(([key, value]) => [key, value === unknownId ? sent : value]));
      const answer = await request(raw);
      expect(answer.status, `${raw}: ${JSON.stringify(answer.body)}`).toBe(404);
      expect(answer.body, raw).toEqual({ error: { ...unknown.body.error, details: echo(unknown.body.error.details) } });
    }
  }

  const badUuids = ['not-a-uuid', '%00', `${crypto.randomUUID()}%00`, `${crypto.randomUUID()}x`, `%F0%9F%98%80`];
  const badEnvelopeIds = ['env_%00', `env_${'A'.repeat(21)}%00`, `env_${'A'.repeat(21)}-`, `env_${'A'.repeat(23)}`, `rcp_${'A'.repeat(22)}`, 'x'];

  it('GET /v1/templates/{id} → 404 template_not_found', async () => {
    await expectSameNotFound(
      (id) => call(stack, 'GET', `/v1/templates/${id}`, { token: company.owner.token }),
      crypto.randomUUID(),
      badUuids,
      'template_not_found',
    );
  });

  it('GET /v1/envelopes/{id}/signing-links → 404 envelope_not_found', async () => {
    await expectSameNotFound(
      (id) => call(stack, 'GET', `/v1/envelopes/${id}/signing-links`, { token: company.owner.token }),
      `env_${'A'.repeat(22)}`,
      badEnvelopeIds,
      'envelope_not_found',
    );
  });

  it('POST /admin/v1/envelopes/{id}/void → 404 envelope_not_found', async () => {
    await expectSameNotFound((id) => admin(stack, 'POST', `/admin/v1/envelopes/${id}/void`), `env_${'A'.repeat(22)}`, badEnvelopeIds, 'envelope_not_found');
  });

  it('POST /admin/v1/api-keys/{id}/rotate and /revoke → 404 api_key_not_found', async () => {
    for (const action of ['rotate', 'revoke']) {
      await expectSameNotFound(
        (id) => admin(stack, 'POST', `/admin/v1/api-keys/${id}/${action}`),
        'key_unknown',
        ['key_%00', 'key%ED%A0%80', 'k'.repeat(201)],
        'api_key_not_found',
      );
    }
  });

  it('every admin path with a company id → 404 company_not_found', async () => {
    const owner = company.owner.ownerEmail;
    const requests: ((id: string) => Promise<Answer>)[] = [
      (id) => admin(stack, 'PUT', `/admin/v1/companies/${id}/users/pat@example.test`, { name: 'Pat', role: 'member' }),
      (id) => admin(stack, 'POST', `/admin/v1/companies/${id}/api-keys`, { owner, scopes: ['templates:read'] }),
      (id) => importInto(id, importForm(JSON.stringify(ndaDefinition()))),
    ];
    for (const request of requests) await expectSameNotFound(request, crypto.randomUUID(), badUuids, 'company_not_found');
  });
});

describe('numbers stay inside their bounds: at the bound taken, one past it 422 with the field', () => {
  it('page of a list: at most MAX_PAGE', async () => {
    expect(MAX_PAGE).toBe(100_000);
    for (const list of ['/v1/contacts', '/v1/templates']) {
      const atBound = await call(stack, 'GET', `${list}?page=${MAX_PAGE}&per_page=100`, { token: company.owner.token });
      expect(atBound.status, JSON.stringify(atBound.body)).toBe(200);
      expect(atBound.body.data).toEqual([]);
      expectError(await call(stack, 'GET', `${list}?page=${MAX_PAGE + 1}`, { token: company.owner.token }), 422, 'validation_failed', ['page']);
      const huge = await call(stack, 'GET', `${list}?page=1e300`, { token: company.owner.token });
      expect(huge.status).toBe(422);
      expect(new Set(huge.body.error.details.issues.map((issue: { path: string }) => issue.path))).toEqual(new Set(['page']));
    }
  });

  it('a field placed at x = 3,000,000,000 is refused by its bound, not by the database', async () => {
    const holder = await createTestCompany(stack);
    const answer = await importInto(holder.id, importForm(JSON.stringify(oneField({ x: 3_000_000_000 }))));
    expectError(answer, 422, 'validation_failed', ['template.fields[0].x']);
    expect(await countOf(templates, holder.id)).toBe(0);
  });

  it('field page, x, y, width and height', async () => {
    expect([MAX_FIELD_PAGE, MAX_PAGE_POINTS]).toEqual([10_000, 14_400]);
    const holder = await createTestCompany(stack);
    const largest = await largestPage();
    // At the bound the field is taken as far as its bound goes: it fits the largest page, or only
    // the check against the document refuses it.
    const taken = [
      { width: MAX_PAGE_POINTS, height: 1, x: 0 },
      { height: MAX_PAGE_POINTS, width: 1, y: 0 },
    ];
    for (const placement of taken) {
      const answer = await importInto(holder.id, importForm(JSON.stringify(oneField(placement)), 'large.pdf', largest));
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    }
    for (const [name, atBound] of [
      ['page', MAX_FIELD_PAGE],
      ['x', MAX_PAGE_POINTS],
      ['y', MAX_PAGE_POINTS],
    ] as const) {
      const answer = await importInto(holder.id, importForm(JSON.stringify(oneField({ [name]: atBound })), 'large.pdf', largest));
      expect(answer.status).toBe(422);
      expect(answer.body.error.message, name).toBe('Some fields do not sit inside a page of the document.');
    }
    for (const [name, pastBound] of [
      ['page', MAX_FIELD_PAGE + 1],
      ['x', MAX_PAGE_POINTS + 1],
      ['y', MAX_PAGE_POINTS + 1],
      ['width', MAX_PAGE_POINTS + 1],
      ['height', MAX_PAGE_POINTS + 1],
    ] as const) {
      expectError(await importInto(holder.id, importForm(JSON.stringify(oneField({ [name]: pastBound })), 'large.pdf', largest)), 422, 'validation_failed', [
        `template.fields[0].${name}`,
      ]);
    }
    expect(await countOf(templates, holder.id)).toBe(2);
  });

  it('order, expiry_days and reminders of a template', async () => {
    const holder = await createTestCompany(stack);
    const cases: [string, (value: number) => Record<string, unknown>, number][] = [
      ['roles[0].order', (order) => oneField({}, { roles: [{ name: 'Signer', type: 'signer', order }] }), 50],
      ['expiry_days', (expiry_days) => oneField({}, { expiry_days }), 365],
      ['reminders.first_after_days', (first_after_days) => oneField({}, { reminders: { first_after_days, every_days: 1 } }), 365],
      ['reminders.every_days', (every_days) => oneField({}, { reminders: { first_after_days: 1, every_days } }), 365],
    ];
    for (const [path, make, bound] of cases) {
      expect((await importInto(holder.id, importForm(JSON.stringify(make(bound))))).status, path).toBe(201);
      expectError(await importInto(holder.id, importForm(JSON.stringify(make(bound + 1)))), 422, 'validation_failed', [`template.${path}`]);
    }
  });

  it('the template part: at most MAX_TEMPLATE_JSON characters', async () => {
    expect(MAX_TEMPLATE_JSON).toBe(1_000_000);
    const holder = await createTestCompany(stack);
    const json = JSON.stringify(oneField());
    const padded = (length: number) => json + ' '.repeat(length - json.length);
    expect((await importInto(holder.id, importForm(padded(MAX_TEMPLATE_JSON)))).status).toBe(201);
    expectError(await importInto(holder.id, importForm(padded(MAX_TEMPLATE_JSON + 1))), 422, 'validation_failed', ['template']);
  });

  it("a field's role: at most 25 characters, like the role names", async () => {
    const holder = await createTestCompany(stack);
    const named = (name: string) => oneField({ role: name }, { roles: [{ name, type: 'signer', order: 1 }] });
    expect((await importInto(holder.id, importForm(JSON.stringify(named('R'.repeat(25)))))).status).toBe(201);
    const answer = await importInto(holder.id, importForm(JSON.stringify(named('R'.repeat(26)))));
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain('template.fields[0].role');
  });

  it('api_signature_requests_per_period of a company', async () => {
    const quota = (value: number) => admin(stack, 'POST', '/admin/v1/companies', { name: `Bound Co ${unique()}`, api_signature_requests_per_period: value });
    expect((await quota(10_000_000)).status).toBe(201);
    expectError(await quota(10_000_001), 422, 'validation_failed', ['api_signature_requests_per_period']);
    expectError(await quota(3_000_000_000), 422, 'validation_failed', ['api_signature_requests_per_period']);
  });
});

describe('tokens signed with our secret but not made by us: 401 unauthorized', () => {
  let keyId: string;
  let version: number;
  beforeAll(async () => {
    keyId = company.owner.id;
    [{ version } = { version: 1 }] = await stack.services.database.db.select({ version: apiKeys.version }).from(apiKeys).where(eq(apiKeys.id, keyId));
  });

  const now = () => Math.floor(stack.clock.now().getTime() / 1000);
  type Shape = { claims?: Record<string, unknown>; iat?: number | null; exp?: number | null; sub?: string };

  /** A token as we issue them, changed by `shape`; null leaves a time claim out. */
  function token(shape: Shape = {}) {
    const jwt = new SignJWT({ cid: company.id, ver: version, ...shape.claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('esign-api')
      .setAudience('esign-api/v1')
      .setSubject(shape.sub ?? keyId);
    const iat = shape.iat === undefined ? now() : shape.iat;
    const exp = shape.exp === undefined ? (iat ?? now()) + 3600 : shape.exp;
    if (iat !== null) jwt.setIssuedAt(iat);
    if (exp !== null) jwt.setExpirationTime(exp);
    return jwt.sign(stack.services.config.tokenSecret);
  }

  const probe = (bearer: string) => call(stack, 'GET', '/v1/contacts', { token: bearer });
  const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('takes a well-formed one, up to exactly one hour between iat and exp', async () => {
    expect((await probe(await token())).status).toBe(200);
    expect((await probe(await token({ iat: now(), exp: now() + 3600 }))).status).toBe(200);
  });

  it('refuses one without exp, without iat, living longer than an hour, or issued in the future', async () => {
    const forged = {
      'no exp': await token({ exp: null }),
      'no iat': await token({ iat: null, exp: now() + 600 }),
      'exp ten years out': await token({ exp: now() + 10 * 365 * 86_400 }),
      'exp one second past the hour': await token({ iat: now(), exp: now() + 3601 }),
      'iat in the future': await token({ iat: now() + 60, exp: now() + 600 }),
      'iat over an hour ago': await token({ iat: now() - 3601, exp: now() + 60 }),
    };
    for (const [what, bearer] of Object.entries(forged)) {
      const answer = await probe(bearer);
      expect([answer.status, answer.body.error?.code], what).toEqual([401, 'unauthorized']);
    }
  });

  it('refuses one naming a malformed company or key id, or a version that is not an integer', async () => {
    for (const shape of [
      { claims: { cid: 'not-a-uuid' } },
      { claims: { cid: `${company.id}\u0000` } },
      { claims: { cid: 42 } },
      { claims: { ver: 1.5 } },
      { claims: { ver: '1' } },
      { sub: `${keyId}\u0000` },
      { sub: 'k'.repeat(201) },
    ] satisfies Shape[]) {
      expectError(await probe(await token(shape)), 401, 'unauthorized');
    }
  });

  it('refuses alg none', async () => {
    const claims = { iss: 'esign-api', aud: 'esign-api/v1', sub: keyId, cid: company.id, ver: version, iat: now(), exp: now() + 3600 };
    expectError(await probe(`${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`), 401, 'unauthorized');
  });
});

describe('the database refusing a value is a data exception (SQLSTATE class 22)', () => {
  it('as PGlite reports it, for a NUL in text and an integer overflow', async () => {
    const { db } = stack.services.database;
    for (const query of [sql`select ${'a\u0000b'}::text`, sql`select ${'3000000000'}::int4`, sql`select ${'nope'}::uuid`]) {
      const refused = await db.execute(query).then(
        () => null,
        (err: unknown) => err,
      );
      expect(isDataException(refused)).toBe(true);
    }
  });
});

// Helpers of the suites above.

/** A path parameter as the router hands it over: percent-decoded where the bytes decode. */
function decodedLikeTheRouter(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

async function sendOne(): Promise<string> {
  const answer = await call(stack, 'POST', '/v1/envelopes/from-template', {
    token: company.owner.token,
    body: {
      template_id: templateId,
      recipients: [
        { role: 'Client', name: 'Cleo', email: `cleo-${unique()}@example.test` },
        { role: 'Witness', name: 'Will', email: `will-${unique()}@example.test` },
      ],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.envelope_id as string;
}

/** The multipart form of a template import. */
function importForm(template: string, fileName = 'nda.pdf', document?: Uint8Array) {
  const form = new FormData();
  form.set('template', template);
  form.set('document', new Blob([(document ?? twoPages) as BlobPart], { type: 'application/pdf' }), fileName);
  return form;
}

async function importInto(companyId: string, form: FormData): Promise<Answer> {
  return call(stack, 'POST', `/admin/v1/companies/${companyId}/templates`, { token: ADMIN_TOKEN, rawBody: form });
}

/** One signer and one field, bent by `field` and `template`. */
const oneField = (field: Record<string, unknown> = {}, template: Record<string, unknown> = {}) => ({
  name: `One field ${unique()}`,
  signing_order: 'parallel',
  roles: [{ name: 'Signer', type: 'signer', order: 1 }],
  fields: [{ role: 'Signer', type: 'signature', page: 1, x: 10, y: 10, width: 100, height: 20, ...field }],
  ...template,
});

/** A one-page PDF as large as a PDF page gets, so that a field may reach the bound and still fit. */
async function largestPage(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([MAX_PAGE_POINTS, MAX_PAGE_POINTS]);
  return pdf.save();
}
