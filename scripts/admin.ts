/**
 * The admin CLI: a thin client of the admin API (`/admin/v1`, described in docs/admin.md).
 * Run as `npm run admin -- <command> [options]`; `npm run admin -- help` lists the commands.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

const usage = `Usage: npm run admin -- <command> [options]

Commands:
  list-companies [--page P] [--per-page N]
  list-users     --company ID [--page P] [--per-page N]
  list-keys      --company ID [--page P] [--per-page N]   (prefixes only: a key is shown once, at creation)
  list-envelopes --company ID [--page P] [--per-page N]
  create-company --name N --quota Q [--brand-message M]
  put-user       --company ID --email E --name N --role owner|admin|member|viewer [--inactive] [--seat]
                 (adds the user, or replaces name, role, status and seat of the one with that e-mail)
  get-brand      --company ID
  set-brand      --company ID [--display-name N] [--logo file.png|file.jpg] [--no-logo] [--accent-color '#rrggbb'] [--brand-message M]
                 (sets only what is given; the logo is a PNG or JPEG of at most 256 KiB and 1024×1024 pixels)
  get-embedding  --company ID
  set-embedding  --company ID --origins https://app.example.com[,https://…]
                 (the origins whose pages may frame the signing pages; replaces the list, --origins '' allows none)
  get-text-messages --company ID
  set-text-messages --company ID --countries GB,IE|all
                 (the countries whose mobile numbers may get a code by text message; all: every one, '' none)
  create-key     --company ID --owner EMAIL --scopes a,b,c [--name N]
  rotate-key     KEY_ID
  revoke-key     KEY_ID
  import-template --company ID --template file.json --pdf file.pdf
  void-envelope  ENVELOPE_ID [--reason R]   (its signing links stop working at once)
  list-dead-jobs [--page P] [--per-page N]   (queue jobs that failed every attempt)
  retry-dead-job JOB_ID   (hands the job back to the queue, due now, attempts from zero)
  help

Environment:
  ADMIN_URL    base address of the service (default http://127.0.0.1:8787)
  ADMIN_TOKEN  the admin token (required)

Prints the JSON answer; on an error answer prints the error and exits with status 1.`;

/** A mistake in the command line: told with the usage, exit status 2. */
class UsageError extends Error {}

type Options = { [name: string]: string | boolean | undefined };
type Call = { method: string; path: string; body?: unknown; form?: FormData };

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required.`);
  return value;
}

function positional(args: string[], what: string): string {
  if (args.length !== 1 || !args[0]) throw new UsageError(`Give exactly one ${what}.`);
  return args[0];
}

const segment = (value: string) => encodeURIComponent(value);

/** `?page=…&per_page=…` from the options given; the service checks the numbers. */
function pageQuery(options: Options): string {
  const query = new URLSearchParams();
  if (typeof options.page === 'string') query.set('page', options.page);
  if (typeof options['per-page'] === 'string') query.set('per_page', options['per-page']);
  return query.size > 0 ? `?${query}` : '';
}

const companyList = (what: string) => (o: Options) => ({
  method: 'GET',
  path: `/admin/v1/companies/${segment(required(o, 'company'))}/${what}${pageQuery(o)}`,
});

const commands: Record<string, (options: Options, args: string[]) => Call | Promise<Call>> = {
  'list-companies': (o) => ({ method: 'GET', path: `/admin/v1/companies${pageQuery(o)}` }),
  'list-users': companyList('users'),
  'list-keys': companyList('api-keys'),
  'list-envelopes': companyList('envelopes'),
  'create-company': (o) => {
    const quota = Number(required(o, 'quota'));
    if (!Number.isInteger(quota)) throw new UsageError('--quota must be a whole number.');
    const brand = typeof o['brand-message'] === 'string' ? { default_email_message: o['brand-message'] } : undefined;
    return { method: 'POST', path: '/admin/v1/companies', body: { name: required(o, 'name'), api_signature_requests_per_period: quota, brand } };
  },
  'put-user': (o) => ({
    method: 'PUT',
    path: `/admin/v1/companies/${segment(required(o, 'company'))}/users/${segment(required(o, 'email'))}`,
    body: { name: required(o, 'name'), role: required(o, 'role'), active: !o.inactive, esign_seat: Boolean(o.seat) },
  }),
  'get-brand': (o) => ({ method: 'GET', path: `/admin/v1/companies/${segment(required(o, 'company'))}/brand` }),
  'set-brand': async (o) => {
    const body: Record<string, unknown> = {};
    if (typeof o['display-name'] === 'string') body.display_name = o['display-name'];
    if (typeof o['accent-color'] === 'string') body.accent_color = o['accent-color'];
    if (typeof o['brand-message'] === 'string') body.default_email_message = o['brand-message'];
    if (o['no-logo']) body.logo = null;
    // The file as it is: the service tells PNG from JPEG (and refuses anything else) by its bytes.
    else if (typeof o.logo === 'string') body.logo = (await readFile(o.logo)).toString('base64');
    if (Object.keys(body).length === 0) throw new UsageError('Give at least one of --display-name, --logo, --no-logo, --accent-color, --brand-message.');
    return { method: 'PUT', path: `/admin/v1/companies/${segment(required(o, 'company'))}/brand`, body };
  },
  'get-embedding': (o) => ({ method: 'GET', path: `/admin/v1/companies/${segment(required(o, 'company'))}/embedding` }),
  'set-embedding': (o) => {
    // Present but empty is a choice (no frame at all), so it is told apart from a forgotten option.
    if (typeof o.origins !== 'string') throw new UsageError("--origins is required (--origins '' allows no frame).");
    const origins = o.origins
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean);
    return { method: 'PUT', path: `/admin/v1/companies/${segment(required(o, 'company'))}/embedding`, body: { allowed_origins: origins } };
  },
  'get-text-messages': (o) => ({ method: 'GET', path: `/admin/v1/companies/${segment(required(o, 'company'))}/text-messages` }),
  'set-text-messages': (o) => {
    if (typeof o.countries !== 'string') throw new UsageError("--countries is required (--countries all allows every country, --countries '' none).");
    const countries =
      o.countries.trim() === 'all'
        ? null
        : o.countries
            .split(',')
            .map((country) => country.trim())
            .filter(Boolean);
    return { method: 'PUT', path: `/admin/v1/companies/${segment(required(o, 'company'))}/text-messages`, body: { allowed_countries: countries } };
  },
  'create-key': (o) => ({
    method: 'POST',
    path: `/admin/v1/companies/${segment(required(o, 'company'))}/api-keys`,
    body: {
      owner: required(o, 'owner'),
      scopes: required(o, 'scopes')
        .split(',')
        .map((scope) => scope.trim())
        .filter(Boolean),
      name: typeof o.name === 'string' ? o.name : undefined,
    },
  }),
  'rotate-key': (_o, args) => ({ method: 'POST', path: `/admin/v1/api-keys/${segment(positional(args, 'key id'))}/rotate` }),
  'revoke-key': (_o, args) => ({ method: 'POST', path: `/admin/v1/api-keys/${segment(positional(args, 'key id'))}/revoke` }),
  'import-template': async (o) => {
    const templateFile = required(o, 'template');
    const pdfFile = required(o, 'pdf');
    const form = new FormData();
    // Sent as written: the service parses and checks it, and names any problem by its path.
    form.set('template', await readFile(templateFile, 'utf8'));
    form.set('document', new Blob([await readFile(pdfFile)], { type: 'application/pdf' }), basename(pdfFile));
    return { method: 'POST', path: `/admin/v1/companies/${segment(required(o, 'company'))}/templates`, form };
  },
  'list-dead-jobs': (o) => ({ method: 'GET', path: `/admin/v1/dead-jobs${pageQuery(o)}` }),
  'retry-dead-job': (_o, args) => ({ method: 'POST', path: `/admin/v1/dead-jobs/${segment(positional(args, 'job id'))}/retry` }),
  'void-envelope': (o, args) => ({
    method: 'POST',
    path: `/admin/v1/envelopes/${segment(positional(args, 'envelope id'))}/void`,
    body: typeof o.reason === 'string' ? { reason: o.reason } : {},
  }),
};

async function send(call: Call, baseUrl: string, token: string): Promise<{ ok: boolean; status: number; body: unknown }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: BodyInit | undefined = call.form;
  if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }
  const url = new URL(call.path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  let response: Response;
  try {
    response = await fetch(url, { method: call.method, headers, body });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new Error(`Cannot reach the admin API at ${baseUrl}: ${cause}`);
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: shown as text.
  }
  return { ok: response.ok, status: response.status, body: parsed };
}

/** `404 company_not_found: No company with that id.` plus the details, if any. */
function describeError(status: number, body: unknown): string {
  const error = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null)?.error;
  if (!error) return `HTTP ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`;
  const details = error.details && Object.keys(error.details).length > 0 ? `\n${JSON.stringify(error.details, null, 2)}` : '';
  return `${status} ${error.code}: ${error.message}${details}`;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      quota: { type: 'string' },
      'brand-message': { type: 'string' },
      'display-name': { type: 'string' },
      logo: { type: 'string' },
      'no-logo': { type: 'boolean' },
      'accent-color': { type: 'string' },
      company: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      inactive: { type: 'boolean' },
      seat: { type: 'boolean' },
      owner: { type: 'string' },
      scopes: { type: 'string' },
      origins: { type: 'string' },
      countries: { type: 'string' },
      template: { type: 'string' },
      pdf: { type: 'string' },
      reason: { type: 'string' },
      page: { type: 'string' },
      'per-page': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...args] = positionals;
  if (!command || command === 'help' || values.help) {
    console.log(usage);
    return command || values.help ? 0 : 2;
  }
  const build = commands[command];
  if (!build) throw new UsageError(`Unknown command "${command}".`);
  const call = await build(values, args);
  const token = process.env.ADMIN_TOKEN;
  if (!token) throw new Error('ADMIN_TOKEN is not set: export the admin token the service printed at start (or was given).');
  const answer = await send(call, process.env.ADMIN_URL || 'http://127.0.0.1:8787', token);
  if (!answer.ok) {
    console.error(describeError(answer.status, answer.body));
    return 1;
  }
  console.log(JSON.stringify(answer.body, null, 2));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const usageError = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(err instanceof Error ? err.message : String(err));
    if (usageError) console.error('Run `npm run admin -- help` for the commands.');
    process.exitCode = usageError ? 2 : 1;
  },
);
