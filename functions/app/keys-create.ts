/**
 * POST /app/keys: makes an API key for an active user of the company, with the scopes ticked, and
 * answers the one page that shows the plain key. A form with a mistake is shown again (422),
 * nothing made.
 */
import type { Context } from 'hono';
import type { CompanyAppEnv } from '../../src/company-app/app-env.js';
import { isScope, keyShownPage, type NewKeyErrors, type NewKeyForm, newKeyPage } from '../../src/company-app/html/keys-pages.js';
import { keysShell } from '../../src/company-app/keys-access.js';
import { appMessages } from '../../src/company-app/messages.js';
import { appVerbContext } from '../../src/company-app/session.js';
import { possibleKeyOwners } from '../../src/domain/auth/company-api-keys.js';
import { createApiKey } from '../../src/domain/auth/manage-api-keys.js';
import { requiredSingleLineText } from '../../src/domain/shared/text-fields.js';
import { readForm, singleValue } from '../../src/http/page-forms.js';
import { companyReads } from '../../src/company-app/page-access.js';

const keyNameRule = requiredSingleLineText(100);

export async function createKey(c: Context<CompanyAppEnv>): Promise<Response> {
  const shell = await keysShell(c);
  if (shell instanceof Response) return shell;
  const m = appMessages();
  const entries = (await readForm(c)) ?? [];
  const form: NewKeyForm = {
    name: singleValue(entries, 'name')?.trim() ?? '',
    scopes: entries.filter(([field]) => field === 'scope').map(([, value]) => (typeof value === 'string' ? value : '')),
    owner: singleValue(entries, 'owner') ?? '',
  };
  const owners = await possibleKeyOwners(companyReads(c, shell));
  const owner = owners.find((candidate) => candidate.id === form.owner);
  const name = keyNameRule.safeParse(form.name);
  const errors: NewKeyErrors = {
    ...(name.success ? {} : { name: true }),
    ...(form.scopes.length > 0 && form.scopes.every(isScope) ? {} : { scopes: true }),
    ...(owner ? {} : { owner: true }),
  };
  if (!name.success || !owner || Object.keys(errors).length > 0) {
    const shown = { ...form, name: form.name.slice(0, 100), scopes: form.scopes.filter(isScope) };
    return c.html(newKeyPage(m, shell, { owners, form: shown, errors }), 422);
  }
  const made = await createApiKey(
    { ...appVerbContext(c), companyId: shell.session.user.companyId },
    // The owner was just read among the company's active users: the verb need not read them again.
    { owner: owner.email, knownOwner: owner, scopes: form.scopes.filter(isScope), name: name.data },
  );
  return c.html(keyShownPage(m, shell, { key: made.key, name: made.name, rotated: false }));
}
