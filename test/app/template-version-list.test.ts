/**
 * A template's page in the application lists its versions each with the settings it was saved
 * with (name, e-mail subject, language), not today's; the settings shown above are the latest's.
 * An envelope's page and the envelopes list name the template as the version it was sent with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveTemplateVersion } from '../../src/domain/templates/save-template-version.js';
import { putUser } from '../../src/domain/users/put-user.js';
import { appClient, freshEmail, signIn } from '../support/app-client.js';
import { asOperator, createTestCompany, createTestTemplate, ndaDefinition, type TestCompany } from '../support/factories.js';
import { call } from '../support/http.js';
import { openStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let company: TestCompany;
beforeAll(async () => {
  stack = await openStack();
  company = await createTestCompany(stack);
});
afterAll(() => stack.close());

/** The versions table's rows, each as its cells' text. */
function versionRows(page: string): string[][] {
  const start = page.indexOf('id="versions-title"');
  const body = page.slice(page.indexOf('<tbody>', start), page.indexOf('</tbody>', start));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => [...row!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) => cell!.trim()));
}

describe('a template’s versions in the application', () => {
  it('shows each version’s own name, subject and language, and an envelope the name of the version it was sent with', async () => {
    const template = await createTestTemplate(stack, company.id, { name: 'Accord v1', email_subject: 'Sujet v1', language: 'fr', signing_order: 'parallel' });
    const sent = await call(stack, 'POST', '/v1/envelopes/from-template', {
      token: company.owner.token,
      body: {
        template_id: template.id,
        title: 'The lease',
        recipients: [
          { role: 'Client', name: 'Cleo Client', email: 'cleo@example.test' },
          { role: 'Witness', name: 'Walt Witness', email: 'walt@example.test' },
        ],
      },
    });
    expect(sent.status).toBe(201);
    const { id: _id, ...v2 } = ndaDefinition({ name: 'Vertrag v2', email_subject: 'Betreff v2', language: 'de' });
    expect(await saveTemplateVersion(asOperator(stack, company.id), { templateId: template.id, definition: v2, document: null })).toBe(2);
    const { id: _same, ...v3 } = ndaDefinition({ name: 'Agreement v3', email_subject: null, language: null });
    expect(await saveTemplateVersion(asOperator(stack, company.id), { templateId: template.id, definition: v3, document: null })).toBe(3);

    const email = freshEmail('viewer');
    await putUser(asOperator(stack, company.id), { email, input: { name: 'Vic Viewer', role: 'viewer', active: true, esign_seat: true } });
    const client = appClient(stack);
    expect((await signIn(stack, client, email)).status).toBe(303);
    const page = await client.get(`/app/templates/${template.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1 id="template-title">Agreement v3</h1>');
    expect(versionRows(page.body).map((cells) => cells.slice(0, 4))).toEqual([
      ['3', 'Agreement v3', 'None', 'The company&#39;s'],
      ['2', 'Vertrag v2', 'Betreff v2', 'Deutsch'],
      ['1', 'Accord v1', 'Sujet v1', 'Français'],
    ]);

    // The envelope sent with version 1 names it as it was sent, in its page and in the list.
    const envelope = await client.get(`/app/envelopes/${sent.body.envelope_id}`);
    expect(envelope.body).toMatch(/<dt>Template<\/dt><dd>Accord v1<\/dd>/);
    const list = await client.get('/app/envelopes');
    expect(list.body).toMatch(new RegExp(`href="/app/envelopes/${sent.body.envelope_id}">The lease</a></th>\\s*<td data-label="Template">Accord v1</td>`));
  });
});
