/**
 * The layers of the code, as a table, checked against every import of src/ and functions/:
 * static imports, `export … from`, dynamic `import('…')` and `import('…')` types. The endpoints
 * (functions/) sit on the edge (src/http) and on the homes of pages (the signing page, the
 * development pages, the company application), which sit on the domain, its ports and what they
 * are made of; an import never runs up, and one home of pages never reaches into another. A rule
 * is made true by fixing the code; an exception says why.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

type Import = { file: string; specifier: string; target: string; typeOnly: boolean };

type Rule = {
  rule: string;
  /** The files it binds: folders end with `/`. */
  from: string[];
  /** Files among those that the rule does not bind, each with its reason. */
  exceptFrom?: Record<string, string>;
  /** What they may not import: project paths, or packages (a name stands for its subpaths too). */
  refuse?: string[];
  /** Or else, all they may import; anything else (packages included) is refused. */
  only?: string[];
  /** What they may import for its types alone. */
  typesOnly?: string[];
  /** Imports the rule lets through, each with its reason. */
  allow?: Record<string, string>;
};

/** Below the edge: what a request passes through without knowing it came over HTTP. */
const belowTheEdge = [
  'src/domain/',
  'src/data/',
  'src/ports/',
  'src/adapters/',
  'src/pdf/',
  'src/queue/',
  'src/outbox/',
  'src/seed/',
  'src/lib/',
  'src/i18n/',
  'src/errors.ts',
  'src/services.ts',
];

/**
 * The homes of the service's pages for people, each beside the API's edge (src/http) and built the
 * same way: its endpoints in functions/ (one file each, named by the routing table), and in its home
 * what they share (its app, HTML, forms, security, language). A home is reached only by its own
 * endpoints, the routing table and the entries, so that a page can change without the API, the
 * domain or another set of pages knowing.
 */
const pageHomes = [
  { home: 'src/signing-page/', serves: 'the signing page behind the links (/sign/*)', endpoints: 'functions/signing/' },
  // The embedded server's alone: its routes are its own app, mounted by the Node entry.
  { home: 'src/dev-pages/', serves: 'the development pages of npm start (/dev/*)', endpoints: undefined },
  { home: 'src/company-app/', serves: "the company application (/app/*), a company's people signed in", endpoints: 'functions/app/' },
];
const homes = pageHomes.map(({ home }) => home);

const escapingOnly =
  'an HTML template tag that escapes what it is given, and no part of serving a request: the e-mails and the catalogue of page texts write their HTML with it';

const layerRules: Rule[] = [
  {
    rule: 'only the composition root loads the endpoints',
    from: ['src/'],
    exceptFrom: {
      'src/app.ts': 'the composition root: it mounts the routing table of functions/ once',
      'src/entries/': "the Worker's and Node's entries: they load the routing table (the Worker lazily, on its first request)",
    },
    refuse: ['functions/'],
  },
  {
    rule: 'below the edge nothing knows HTTP: no src/http, no home of pages, no app or entry, no Hono',
    from: belowTheEdge,
    refuse: ['functions/', 'src/http/', ...homes, 'src/app.ts', 'src/entries/', 'hono', '@hono/'],
    allow: { 'hono/html': escapingOnly, 'hono/utils/html': escapingOnly },
  },
  {
    rule: 'the domain reaches outside services through its ports, never their implementations',
    from: ['src/domain/'],
    refuse: ['src/adapters/', 'src/pdf/', 'src/queue/', 'src/seed/'],
  },
  ...pageHomes.map(
    ({ home, serves, endpoints }): Rule => ({
      rule: `${home} holds ${serves}: only its endpoints, the routing table and the entries import it`,
      from: ['src/', 'functions/'],
      exceptFrom: {
        [home]: 'the home itself',
        ...(endpoints ? { [endpoints]: 'its endpoints' } : {}),
        'functions/routes.ts': 'the routing table, which mounts the pages',
        'functions/application-routes.ts': "the company application's place in the table, apart for its own Worker",
        'src/entries/': 'the entries, which serve the static files with the same headers as the pages',
      },
      refuse: [home],
    }),
  ),
  {
    rule: 'a page served to the public reaches outside services through the domain and its ports, never their implementations',
    from: ['src/signing-page/', 'src/company-app/'],
    refuse: ['src/adapters/', 'src/pdf/', 'src/queue/', 'src/seed/'],
  },
  {
    rule: 'the data layer knows only itself, the error type and the helpers of src/lib',
    from: ['src/data/'],
    only: ['src/data/', 'src/errors.ts', 'src/lib/', 'drizzle-orm', 'node:'],
  },
  {
    rule: 'a port is a contract: types, and the checks every implementation of it shares',
    from: ['src/ports/'],
    // The mailer's check of header text is the port's own rule, shared by every mailer.
    only: ['src/ports/', 'src/lib/'],
    // The schema's types are the stored shapes a port carries (a template's page sizes, a field's type).
    typesOnly: ['src/domain/shared/', 'src/errors.ts', 'src/data/schema.ts'],
  },
];

const root = resolve(import.meta.dirname, '../..');
const withoutExtension = (path: string) => path.replace(/\.(d\.ts|ts|mts|js|mjs)$/, '');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every import of a file, with the project path it resolves to (a package keeps its name). */
function importsOf(file: string, text = readFileSync(join(root, file), 'utf8')): Import[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (literal: ts.Node | undefined, typeOnly: boolean) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const specifier = literal.text;
    const target = specifier.startsWith('.') ? relative(root, resolve(dirname(join(root, file)), specifier)) : specifier;
    found.push({ file, specifier, target, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const everyNameIsAType =
        !!clause && !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, !!clause && (clause.isTypeOnly || everyNameIsAType));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const named = node.exportClause;
      const everyNameIsAType = !!named && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, node.isTypeOnly || everyNameIsAType);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * An entry ending in `/` or `:` is a prefix (a folder, `@hono/`, `node:`); any other is a file
 * (`src/app.ts`, whatever its extension in the specifier) or a package with its subpaths.
 */
function matches(target: string, entry: string): boolean {
  if (entry.endsWith('/') || entry.endsWith(':')) return target.startsWith(entry);
  return withoutExtension(target) === withoutExtension(entry) || target.startsWith(`${entry}/`);
}

const bound = (rule: Rule, file: string) =>
  rule.from.some((entry) => matches(file, entry)) && !Object.keys(rule.exceptFrom ?? {}).some((entry) => matches(file, entry));

/** Why an import breaks a rule, or undefined when it keeps it. */
function breach(rule: Rule, found: Import): string | undefined {
  if (Object.keys(rule.allow ?? {}).some((entry) => matches(found.target, entry))) return undefined;
  if (rule.refuse?.some((entry) => matches(found.target, entry))) return 'refused';
  if (rule.only) {
    if (rule.only.some((entry) => matches(found.target, entry))) return undefined;
    if (rule.typesOnly?.some((entry) => matches(found.target, entry))) return found.typeOnly ? undefined : 'allowed for its types only';
    return 'not among what it may import';
  }
  return undefined;
}

function breachesOf(file: string, text?: string): string[] {
  return importsOf(file, text).flatMap((found) =>
    layerRules.flatMap((rule) => {
      if (!bound(rule, file)) return [];
      const why = breach(rule, found);
      return why ? [`${file} imports '${found.specifier}' (${found.target}): ${why} by the rule "${rule.rule}"`] : [];
    }),
  );
}

const files = [...sourceFiles('src'), ...sourceFiles('functions')];
/** The rule that starts with these words. */
const ruleOf = (start: string) => layerRules.find(({ rule }) => rule.startsWith(start))?.rule ?? `no rule starts with ${start}`;

describe('the layer rules', () => {
  it('read every kind of import of src/ and functions/', () => {
    const all = files.flatMap((file) => importsOf(file));
    expect(files.length).toBeGreaterThan(100);
    // Each kind the rules rely on is seen: a value import, a type-only one, a dynamic one, a re-export.
    expect(all.some((found) => found.target.startsWith('src/') && !found.typeOnly)).toBe(true);
    expect(all.some((found) => found.typeOnly)).toBe(true);
    expect(files.some((file) => /\bimport\(\s*['"]/.test(readFileSync(join(root, file), 'utf8')))).toBe(true);
    expect(all.some((found) => found.file === 'src/http/schemas.ts' && found.target === 'src/domain/shared/text-fields.js')).toBe(true);
  });

  it('name the homes of pages, and the routing table mounts each that exists', () => {
    const tables = ['functions/routes.ts', 'functions/application-routes.ts'].flatMap((file) => importsOf(file, readFileSync(join(root, file), 'utf8')));
    const built = pageHomes.filter(({ home }) => existsSync(join(root, home)));
    expect(built.map(({ home }) => home)).toEqual(['src/signing-page/', 'src/dev-pages/', 'src/company-app/']);
    for (const { home } of built) expect(tables.some((found) => found.target.startsWith(home))).toBe(true);
    // The API's edge holds no page: each of those files has moved to its home.
    expect(files.filter((file) => /^src\/http\/(signing|dev)-/.test(file))).toEqual([]);
  });

  it('hold for every file', () => {
    expect(files.flatMap((file) => breachesOf(file))).toEqual([]);
  });

  it('name the file, the import and the rule of a breach', () => {
    const imports = [
      "import { v1Endpoints } from '../../../functions/routes.js';",
      "import type { Context } from 'hono';",
      "const pages = () => import('../../signing-page/html/sign-page.js');",
      "export { html } from 'hono/html';",
    ].join('\n');
    const page = "imports '../../signing-page/html/sign-page.js' (src/signing-page/html/sign-page.js)";
    expect(breachesOf('src/domain/envelopes/an-example.ts', imports)).toEqual([
      `src/domain/envelopes/an-example.ts imports '../../../functions/routes.js' (functions/routes.js): refused by the rule "${layerRules[0]?.rule}"`,
      `src/domain/envelopes/an-example.ts imports '../../../functions/routes.js' (functions/routes.js): refused by the rule "${layerRules[1]?.rule}"`,
      `src/domain/envelopes/an-example.ts imports 'hono' (hono): refused by the rule "${layerRules[1]?.rule}"`,
      `src/domain/envelopes/an-example.ts ${page}: refused by the rule "${layerRules[1]?.rule}"`,
      `src/domain/envelopes/an-example.ts ${page}: refused by the rule "${ruleOf('src/signing-page/')}"`,
    ]);
    // The API's edge imports no page; a home of pages none of another; an endpoint none of another home's.
    expect(breachesOf('src/http/an-example.ts', "import { signingGuard } from '../signing-page/security.js';")).toEqual([
      `src/http/an-example.ts imports '../signing-page/security.js' (src/signing-page/security.js): refused by the rule "${ruleOf('src/signing-page/')}"`,
    ]);
    expect(breachesOf('src/signing-page/an-example.ts', "import { devPages } from '../dev-pages/dev-pages.js';")).toEqual([
      `src/signing-page/an-example.ts imports '../dev-pages/dev-pages.js' (src/dev-pages/dev-pages.js): refused by the rule "${ruleOf('src/dev-pages/')}"`,
    ]);
    expect(breachesOf('functions/app/an-example.ts', "import type { PageLinks } from '../../src/signing-page/html/layout.js';")).toEqual([
      `functions/app/an-example.ts imports '../../src/signing-page/html/layout.js' (src/signing-page/html/layout.js): refused by the rule "${ruleOf(
        'src/signing-page/',
      )}"`,
    ]);
    // Its own endpoints, the routing table and the entries may; the signing page reaches no adapter.
    expect(breachesOf('functions/signing/an-example.ts', "import { tokenOf } from '../../src/signing-page/link-request.js';")).toEqual([]);
    expect(breachesOf('src/signing-page/an-example.ts', "import { DevMailbox } from '../adapters/embedded/dev-mailbox.js';")).toHaveLength(1);
    // A port may take a type from the data layer's schema, not a value.
    expect(breachesOf('src/ports/an-example.ts', "import type { PageSize } from '../data/schema.js';")).toEqual([]);
    expect(breachesOf('src/ports/an-example.ts', "import { companies } from '../data/schema.js';")).toEqual([
      `src/ports/an-example.ts imports '../data/schema.js' (src/data/schema.js): allowed for its types only by the rule "${ruleOf('a port is')}"`,
    ]);
  });
});
