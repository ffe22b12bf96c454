/**
 * The kinds with a value of their own shape (date, number, dropdown, radio), from the template's
 * import to the finished PDF: the definition's refusals by path, the signing page's controls, the
 * server's checks of each value in the signer's language, and each value drawn at its place.
 *
 * One file although long: one set of kinds followed through import, page, submission and PDF on one stack.
 */
import { tmpdir } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { envelopeFields, templateFields } from '../../src/data/schema.js';
import { TemplateDefinition } from '../../src/domain/templates/template-definition.js';
import { loadSeed } from '../../src/seed/load-seed.js';
import { createTestCompany, ndaDefinition, sendTestEnvelope, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { installed } from '../support/outside-tools.js';
import { pdfWords } from '../support/pdf-text.js';
import { ADMIN_TOKEN, BASE_URL, openStack, type TestStack } from '../support/stack.js';
import { finishedPdf } from '../support/stored-documents.js';
import { nodeFontSource } from '../../src/pdf/fonts/node-font-source.js';
import { generateDocument } from '../../src/pdf/generate-document.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack, { quota: 1000 });
});
afterAll(() => stack.close());

const place = { role: 'Client', page: 1 };
const kindsFields = [
  { ...place, type: 'date', label: 'Start date', x: 72, y: 100, width: 200, height: 20 },
  { ...place, type: 'number', label: 'Seats', x: 72, y: 140, width: 120, height: 20, min: 1, max: 10 },
  { ...place, type: 'dropdown', label: 'Plan', x: 72, y: 180, width: 200, height: 20, options: ['Basic', 'Premium'] },
  {
    ...place,
    type: 'radio',
    label: 'Billing',
    x: 72,
    y: 220,
    width: 300,
    height: 20,
    options: [
      { value: 'Monthly', x: 72, y: 220, width: 20, height: 20 },
      { value: 'Yearly', x: 300, y: 220, width: 20, height: 20 },
    ],
  },
  { ...place, type: 'number', label: 'Referrals', x: 72, y: 260, width: 120, height: 20, required: false },
  { ...place, type: 'signature', page: 2, x: 72, y: 640, width: 200, height: 40 },
  { role: 'Witness', type: 'signature', page: 2, x: 72, y: 700, width: 200, height: 40 },
] as TemplateDefinition['fields'];

/** The issues of a definition with this one field (of role Client) as the import states them. */
function issuesOf(field: Record<string, unknown>) {
  const parsed = TemplateDefinition.safeParse(ndaDefinition({ fields: [{ ...place, x: 72, y: 100, width: 300, height: 40, ...field } as never] }));
  return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
}
const radio = (count: number, box: (index: number) => object = (index) => ({ x: 72 + index * 10, y: 100, width: 10, height: 10 })) =>
  Array.from({ length: count }, (_, index) => ({ value: `o${index}`, ...box(index) }));

describe('a template’s field kinds at the import', () => {
  it.each([
    ['a dropdown without options', { type: 'dropdown' }, 'fields.0.options'],
    ['a dropdown with no option', { type: 'dropdown', options: [] }, 'fields.0.options'],
    ['a dropdown with 51 options', { type: 'dropdown', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 'fields.0.options'],
    ['a dropdown option twice', { type: 'dropdown', options: ['A', 'B', 'A'] }, 'fields.0.options.2'],
    ['an empty dropdown option', { type: 'dropdown', options: ['A', ''] }, 'fields.0.options.1'],
    ['a blank dropdown option', { type: 'dropdown', options: ['A', '  '] }, 'fields.0.options.1'],
    ['a dropdown option of two lines', { type: 'dropdown', options: ['A', 'B\nC'] }, 'fields.0.options.1'],
    ['a dropdown option of 101 characters', { type: 'dropdown', options: ['x'.repeat(101)] }, 'fields.0.options.0'],
    ['a dropdown option given a box', { type: 'dropdown', options: radio(2) }, 'fields.0.options.0'],
    ['a radio group without options', { type: 'radio' }, 'fields.0.options'],
    ['a radio group of one option', { type: 'radio', options: radio(1) }, 'fields.0.options'],
    ['a radio group of 21 options', { type: 'radio', options: radio(21, (i) => ({ x: 72 + i, y: 100, width: 1, height: 1 })) }, 'fields.0.options'],
    ['a radio option without a box', { type: 'radio', options: ['A', 'B'] }, 'fields.0.options.0'],
    ['a radio value twice', { type: 'radio', options: [...radio(2), { value: 'o0', x: 200, y: 100, width: 10, height: 10 }] }, 'fields.0.options.2.value'],
    ['a radio box outside the field', { type: 'radio', options: radio(2, (i) => ({ x: 72 + i * 300, y: 100, width: 10, height: 10 })) }, 'fields.0.options.1'],
    [
      'a radio box one point below the field',
      { type: 'radio', options: radio(2, (i) => ({ x: 72 + i * 10, y: 131, width: 10, height: 10 })) },
      'fields.0.options.0',
    ],
    ['options on a text field', { type: 'text', options: ['A'] }, 'fields.0.options'],
    ['options on a number', { type: 'number', options: ['A'] }, 'fields.0.options'],
    ['min on a date', { type: 'date', min: 1 }, 'fields.0.min'],
    ['max on a dropdown', { type: 'dropdown', options: ['A'], max: 1 }, 'fields.0.max'],
    ['min above max', { type: 'number', min: 2, max: 1 }, 'fields.0.min'],
    ['a min that is no number', { type: 'number', min: '1' }, 'fields.0.min'],
  ])('refuses %s, naming its path', (_, field, path) => {
    expect(issuesOf(field).map(([at]) => at)).toContain(path);
  });

  it.each([
    ['a dropdown of one option', { type: 'dropdown', options: ['Only'] }],
    ['a dropdown of 50 options', { type: 'dropdown', options: Array.from({ length: 50 }, (_, i) => `o${i}`) }],
    ['a dropdown option of 100 characters', { type: 'dropdown', options: ['x'.repeat(100)] }],
    ['a radio group of 2 options', { type: 'radio', options: radio(2) }],
    ['a radio group of 20 options', { type: 'radio', options: radio(20, (i) => ({ x: 72 + i, y: 100, width: 1, height: 1 })) }],
    ['a radio box exactly the field', { type: 'radio', options: radio(2, () => ({ x: 72, y: 100, width: 300, height: 40 })) }],
    ['a number with min equal to max', { type: 'number', min: 3, max: 3 }],
    ['a number with decimal bounds', { type: 'number', min: -1.5, max: 2.25 }],
    ['a number without bounds', { type: 'number' }],
    ['a date', { type: 'date', required: false }],
  ])('takes %s', (_, field) => {
    expect(issuesOf(field)).toEqual([]);
  });

  it('answers 422 validation_failed with the path over the admin API, and stores nothing', async () => {
    const bytes = await generateDocument('Kinds', 2, nodeFontSource());
    const form = new FormData();
    form.set('template', JSON.stringify(ndaDefinition({ fields: [{ ...place, type: 'dropdown', x: 72, y: 100, width: 100, height: 20 } as never] })));
    form.set('document', new Blob([bytes as BlobPart], { type: 'application/pdf' }), 'kinds.pdf');
    const answer = await call(stack, 'POST', `/admin/v1/companies/${company.id}/templates`, { token: ADMIN_TOKEN, rawBody: form });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('validation_failed');
    expect(JSON.stringify(answer.body.error.details)).toContain('options');
    const listed = await call(stack, 'GET', '/v1/templates', { token: company.owner.token });
    expect(JSON.stringify(listed.body)).not.toContain('kinds.pdf');
  });
});

type Page = { status: number; html: string; location: string | null };
const open = async (path: string): Promise<Page> => {
  const answer = await call<string>(stack, 'GET', path);
  return { status: answer.status, html: String(answer.body), location: answer.headers.get('location') };
};
async function post(path: string, form: URLSearchParams): Promise<Page> {
  const answer = await call<string>(stack, 'POST', path, {
    rawBody: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
  });
  return { status: answer.status, html: String(answer.body), location: answer.headers.get('location') };
}

/** The sign form's action, its hidden inputs, and the field ids by label, as the page shows them. */
function formOf(html: string) {
  const form = html.slice(html.indexOf('<form class="sign-form"'), html.indexOf('</form>', html.indexOf('<form class="sign-form"')));
  const action = /action="([^"]+)"/.exec(form)![1]!.replace(/&amp;/g, '&');
  const hidden = new URLSearchParams();
  for (const [input] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    const [, name, value] = /name="([^"]+)" value="([^"]*)"/.exec(input)!;
    hidden.append(name!, value!);
  }
  const ids = new Map<string, string>();
  for (const [, id, label] of form.matchAll(/<(?:div|fieldset) class="field[^"]*" id="field-([^"]+)"[^>]*>\s*<(?:label for="[^"]+"|legend[^>]*)>([^<]+)/g))
    ids.set(label!.trim(), id!);
  return { action, hidden, ids, form };
}

async function kindsEnvelope(language?: TemplateDefinition['language']) {
  const sent = await sendTestEnvelope(stack, company, { signing_order: 'parallel', fields: kindsFields, ...(language ? { language } : {}) });
  const page = await open(`/sign/${sent.links[0]!.token}`);
  expect(page.status).toBe(200);
  return { ...sent, page, ...formOf(page.html) };
}

function filled(form: ReturnType<typeof formOf>, values: Record<string, string>) {
  const body = new URLSearchParams(form.hidden);
  for (const [label, value] of Object.entries(values)) body.set(`field.${form.ids.get(label) ?? label}`, value);
  body.set(`field.${[...form.ids.entries()].find(([label]) => label === 'Signature')?.[1]}`, 'Cleo Client');
  body.set('consent', 'yes');
  return body;
}

const good = { 'Start date': '2027-02-28', Seats: '7', Plan: 'Premium', Billing: 'Yearly', Referrals: '' };
const storedValues = async (envelopeId: string) =>
  Object.fromEntries(
    (await stack.services.database.db.select().from(envelopeFields).where(eq(envelopeFields.envelopeId, envelopeId))).map((field) => [
      field.label ?? field.type,
      field.value,
    ]),
  );

describe('the signing page of the new kinds', () => {
  it('shows a date picker, a number input with its bounds, a dropdown with a blank first choice and a radio group', async () => {
    const { form } = await kindsEnvelope();
    expect(form).toMatch(/<input id="[^"]+" name="field\.[^"]+" type="date" value=""/);
    expect(form).toMatch(/type="number" step="any" min="1" max="10"/);
    expect(form).toMatch(
      /<select [^>]*name="field\.[^"]+"[^>]*>\s*<option value="" selected>Choose…<\/option>\s*<option value="Basic">Basic<\/option><option value="Premium">Premium<\/option>/,
    );
    expect(form.match(/type="radio" id="[^"]+" name="field\.[^"]+" value="(Monthly|Yearly)"/g)).toHaveLength(2);
  });

  it.each([
    ['a date that does not exist', { 'Start date': '2027-02-29' }, 'Enter a date that exists for “Start date”.'],
    ['a date not in ISO 8601', { 'Start date': '28/02/2027' }, 'Enter a date that exists for “Start date”.'],
    ['a number one below the minimum', { Seats: '0' }, '“Seats” must be at least 1.'],
    ['a number one past the maximum', { Seats: '11' }, '“Seats” must be at most 10.'],
    ['a number just past the maximum', { Seats: '10.001' }, '“Seats” must be at most 10.'],
    ['words for a number', { Seats: 'seven' }, 'Enter a number for “Seats”.'],
    ['Infinity for a number', { Seats: 'Infinity' }, 'Enter a number for “Seats”.'],
    ['an option the dropdown does not have', { Plan: 'Gold' }, 'Choose one of the options given for “Plan”.'],
    ['no choice of a required dropdown', { Plan: '' }, 'Choose one option for “Plan”.'],
    ['an option the radio group does not have', { Billing: 'Weekly' }, 'Choose one of the options given for “Billing”.'],
    ['no choice of a required radio group', { Billing: '' }, 'Choose one option for “Billing”.'],
    ['a number with an unstorable character', { Seats: '1\u0000' }, 'cannot be accepted'],
  ])('refuses %s with the page’s error, and stores nothing', async (_, bad, message) => {
    const envelope = await kindsEnvelope();
    const answer = await post(envelope.action, filled(envelope, { ...good, ...bad }));
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('error-summary');
    expect(answer.html).toContain(message);
    expect(Object.values(await storedValues(envelope.envelopeId)).filter((value) => value !== null)).toEqual([]);
  });

  it('puts each radio option at its box on the page, and says how the document will write a date, in the envelope’s language', async () => {
    const { form } = await kindsEnvelope();
    expect(form).toMatch(/<div class="field-choice" data-option-box data-x="300" data-y="220" data-w="20" data-h="20"><input type="radio"[^>]* value="Yearly"/);
    const german = await kindsEnvelope('de');
    const refused = await post(german.action, filled(german, { ...good, Seats: '11' }));
    // The page in the signer's language, the date as the German document will write it.
    expect(refused.html).toContain('Im Dokument steht: 28. Februar 2027');
    expect(refused.html).toMatch(/data-locale="de[^"]*"/);
    const english = await kindsEnvelope();
    expect((await post(english.action, filled(english, { ...good, Seats: '11' }))).html).toContain('Appears in the document as: 28 February 2027');
  });

  it('says nothing of how the document would write a refused date that does not exist (30 February is not 2 March)', async () => {
    const envelope = await kindsEnvelope();
    const refused = await post(envelope.action, filled(envelope, { ...good, 'Start date': '2027-02-30' }));
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('Enter a date that exists for “Start date”.');
    expect(refused.html).not.toContain('March 2027');
    expect(refused.html).toMatch(/<p class="hint" id="shown-[^"]+" data-date-shown="[^"]+"[^>]*><\/p>/);
  });

  it('refuses in the signer’s language', async () => {
    const envelope = await kindsEnvelope('de');
    const answer = await post(envelope.action, filled(envelope, { ...good, Seats: '11' }));
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('„Seats“ darf höchstens 10 sein.');
  });

  it('takes the bounds themselves, and a number as typed', async () => {
    for (const seats of ['1', '10', '1.50']) {
      const envelope = await kindsEnvelope();
      expect((await post(envelope.action, filled(envelope, { ...good, Seats: seats }))).status).toBe(303);
      expect((await storedValues(envelope.envelopeId)).Seats).toBe(seats);
    }
  });

  it.skipIf(!installed('pdftotext'))(
    'stores each value as documented, leaves the optional one empty, and draws them at their places in the finished PDF',
    async () => {
      const envelope = await kindsEnvelope('fr');
      expect((await post(envelope.action, filled(envelope, good))).status).toBe(303);
      expect(await storedValues(envelope.envelopeId)).toMatchObject({
        'Start date': '2027-02-28',
        Seats: '7',
        Plan: 'Premium',
        Billing: 'Yearly',
        Referrals: null,
      });
      // The second signer signs too, so the envelope completes and its PDF is made.
      const witness = formOf((await open(`/sign/${envelope.links[1]!.token}`)).html);
      const body = new URLSearchParams(witness.hidden);
      for (const id of witness.ids.values()) body.set(`field.${id}`, 'Walt Witness');
      body.set('consent', 'yes');
      expect((await post(witness.action, body)).status).toBe(303);
      const bytes = await vi.waitFor(
        async () => {
          const pdf = await finishedPdf(stack.services, envelope.envelopeId);
          expect(pdf).not.toBeNull();
          return pdf!;
        },
        { timeout: 60_000, interval: 200 },
      );
      const words = pdfWords(bytes, 1);
      const at = (text: string) => words.filter((word) => word.text === text);
      // Each value inside its field's box (PDF points from the page's top-left, as the template states them).
      const inside = (text: string, box: { x: number; y: number; width: number; height: number }) =>
        at(text).some((word) => word.xMin >= box.x - 1 && word.xMax <= box.x + box.width + 1 && word.yMin >= box.y - 1 && word.yMax <= box.y + box.height + 1);
      expect(inside('février', kindsFields[0]!)).toBe(true);
      expect(inside('28', kindsFields[0]!)).toBe(true);
      expect(inside('7', kindsFields[1]!)).toBe(true);
      expect(inside('Premium', kindsFields[2]!)).toBe(true);
      // The mark in the chosen option's box, and nothing in the other's.
      expect(inside('X', { x: 300, y: 220, width: 20, height: 20 })).toBe(true);
      expect(inside('X', { x: 72, y: 220, width: 20, height: 20 })).toBe(false);
      expect(words.some((word) => word.yMin >= 259 && word.yMax <= 281 && word.xMin >= 71 && word.xMax <= 193)).toBe(false);
    },
    90_000,
  );
});

describe('a seed with the new kinds', () => {
  it('loads a template of every new kind, with its settings', async () => {
    const companyId = crypto.randomUUID();
    const seed = {
      companies: [
        {
          id: companyId,
          name: 'Kinds Ltd',
          api_signature_requests_per_period: 10,
          templates: [{ ...ndaDefinition({ fields: kindsFields }), document: { generate: { title: 'Kinds', pages: 2 } } }],
        },
      ],
    };
    await loadSeed(stack.services, seed, tmpdir());
    const rows = await stack.services.database.db.select().from(templateFields).where(eq(templateFields.companyId, companyId));
    const settings = Object.fromEntries(rows.map((row) => [row.label ?? row.type, row.settings]));
    expect(settings).toMatchObject({
      'Start date': null,
      Seats: { min: 1, max: 10 },
      Plan: { options: ['Basic', 'Premium'] },
      Billing: {
        options: [
          { value: 'Monthly', x: 72, y: 220, width: 20, height: 20 },
          { value: 'Yearly', x: 300, y: 220, width: 20, height: 20 },
        ],
      },
      Referrals: null,
    });
  });
});
