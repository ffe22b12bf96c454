/**
 * Both mailers refuse, before anything is sent, an e-mail whose subject, sender or recipient name, or address
 * holds a line break or another control character (`Hi\r\nBcc: evil@example.com`), naming the part
 * and never its text; names in any script go out as given, and a name that reads like an address
 * list stays one recipient's name.
 */
import { describe, expect, it } from 'vitest';
import { createEmailApiStandin } from '../../local/standins/email-api.js';
import { DevMailbox } from '../../src/adapters/embedded/dev-mailbox.js';
import { EmailApiMailer } from '../../src/adapters/production/email-api-mailer.js';
import { type Email, type HeaderPart, type Mailer, UnsafeEmailHeader } from '../../src/ports/mailer.js';
import { namesOfTheWorld, notSingleLine, shown } from '../support/control-characters.js';

const apiKey = 're_headers-test';
const url = 'http://email.standin.test/emails';

const email = (overrides: Partial<Email> = {}): Email => ({
  to: { name: 'Cleo Client', email: 'cleo@example.test' },
  subject: 'Please sign the NDA',
  text: 'Review and sign.',
  idempotencyKey: `key-${crypto.randomUUID()}`,
  ...overrides,
});

/** The production mailer over the stand-in's fetch handler, with the bodies it posted. */
function apiMailer() {
  const standin = createEmailApiStandin(apiKey);
  const posted: { to: string[]; subject: string }[] = [];
  const mailer = new EmailApiMailer(
    { url, apiKey, from: 'Acme Sign <sign@acme.test>' },
    {
      fetch: async (target, init) => {
        posted.push(JSON.parse(String(init.body)));
        return standin.fetch(new Request(target, init));
      },
    },
  );
  return { mailer, posted, delivered: () => standin.mailbox.list() };
}

function devMailer() {
  const mailbox = new DevMailbox();
  return { mailer: mailbox as Mailer, posted: [] as unknown[], delivered: () => mailbox.list() };
}

/** The e-mail with `bad` put inside the given part. */
function withBad(part: HeaderPart, bad: string): Email {
  if (part === 'subject') return email({ subject: `Hi${bad}Bcc: evil@example.com` });
  if (part === 'from.name') return email({ from: { name: `Acme${bad}Bcc: evil@example.com` } });
  if (part === 'to.name') return email({ to: { name: `Cleo${bad}Bcc: evil@example.com`, email: 'cleo@example.test' } });
  return email({ to: { name: 'Cleo Client', email: `cleo@example.test${bad}Bcc: evil@example.com` } });
}

describe.each([
  ['EmailApiMailer', apiMailer],
  ['DevMailbox', devMailer],
])('%s', (_name, make) => {
  it('refuses a subject, a name or an address with any control character, sending nothing', async () => {
    const { mailer, posted, delivered } = make();
    for (const part of ['subject', 'from.name', 'to.name', 'to.email'] as const) {
      for (const bad of notSingleLine) {
        const err = await mailer.send(withBad(part, bad)).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(err, `${part} with ${shown(bad)}`).toBeInstanceOf(UnsafeEmailHeader);
        expect(err).toMatchObject({ part });
        expect((err as Error).message).not.toContain('evil@example.com');
      }
    }
    expect(posted).toEqual([]);
    expect(delivered()).toEqual([]);
  });

  it('sends names and subjects in any script as given', async () => {
    const { mailer, delivered } = make();
    for (const name of namesOfTheWorld) await mailer.send(email({ to: { name, email: 'cleo@example.test' }, subject: `Bitte unterschreiben: ${name}` }));
    expect(
      delivered()
        .map((mail) => [mail.to.name, mail.subject])
        .reverse(),
    ).toEqual(namesOfTheWorld.map((name) => [name, `Bitte unterschreiben: ${name}`]));
  });
});

describe('EmailApiMailer recipient names', () => {
  it('quotes a name with a comma, @, ; or :, so that it stays one recipient', async () => {
    const { mailer, posted } = apiMailer();
    await mailer.send(email({ to: { name: 'evil@attacker.test, Cleo', email: 'cleo@example.test' } }));
    await mailer.send(email({ to: { name: 'Team: a@x.test; "Cleo" \\ Client', email: 'cleo@example.test' } }));
    await mailer.send(email({ to: { name: 'Dr Cleo O’Brien-Núñez', email: 'cleo@example.test' } }));
    expect(posted.map((body) => body.to)).toEqual([
      ['"evil@attacker.test, Cleo" <cleo@example.test>'],
      ['"Team: a@x.test; Cleo \\\\ Client" <cleo@example.test>'],
      ['Dr Cleo O’Brien-Núñez <cleo@example.test>'],
    ]);
  });
});

describe('EmailApiMailer sender name', () => {
  it("sends from the company's display name at the service's own address, quoted where it must be, with the HTML", async () => {
    const { mailer, posted, delivered } = apiMailer();
    await mailer.send(email({ from: { name: 'Initech Legal' }, html: '<p>Review and sign.</p>' }));
    await mailer.send(email({ from: { name: 'Acme, Inc. (legal@acme.test)' } }));
    await mailer.send(email({ from: { name: '株式会社 Ünïcødé' } }));
    await mailer.send(email());
    expect(posted.map((body) => (body as { from?: string }).from)).toEqual([
      'Initech Legal <sign@acme.test>',
      '"Acme, Inc. (legal@acme.test)" <sign@acme.test>',
      '株式会社 Ünïcødé <sign@acme.test>',
      'Acme Sign <sign@acme.test>',
    ]);
    expect((posted[0] as { html?: string }).html).toBe('<p>Review and sign.</p>');
    // The stand-in's mailbox reads the name back as the dev mailbox shows it.
    expect(
      delivered()
        .map((mail) => mail.from?.name)
        .reverse(),
    ).toEqual(['Initech Legal', 'Acme, Inc. (legal@acme.test)', '株式会社 Ünïcødé', 'Acme Sign']);
    expect(delivered().at(-1)!.html).toBe('<p>Review and sign.</p>');
  });

  it('takes a bare EMAIL_FROM address too', async () => {
    const standin = createEmailApiStandin(apiKey);
    const posted: { from: string }[] = [];
    const mailer = new EmailApiMailer(
      { url, apiKey, from: 'sign@acme.test' },
      {
        fetch: async (target, init) => {
          posted.push(JSON.parse(String(init.body)));
          return standin.fetch(new Request(target, init));
        },
      },
    );
    await mailer.send(email({ from: { name: 'Initech' } }));
    await mailer.send(email());
    expect(posted.map((body) => body.from)).toEqual(['Initech <sign@acme.test>', 'sign@acme.test']);
  });
});
