/**
 * Makes the next send's write fail after every write in it has run, so the tests prove the
 * database keeps none of them. A send without an Idempotency-Key writes as one statement
 * (`writeAsOne`): a recipient row for an envelope that does not exist is added to it, which the
 * foreign key refuses at the statement's end. One with a key writes as a batch (`atomic`): a
 * statement that fails when the transaction reaches it is added after the others.
 */
import { vi } from 'vitest';
import type { Database } from '../../src/data/database.js';
import { recipients } from '../../src/data/schema.js';

/** A statement that fails only when the transaction runs it (a promise rejected up front would go unhandled). */
const failingStatement = (message: string): PromiseLike<unknown> => ({
  then: (onfulfilled, onrejected) => Promise.reject(new Error(message)).then(onfulfilled, onrejected),
});

export function failNextSendWrite(database: Database, message: string) {
  const { atomic, writeAsOne } = database;
  const spies = [
    vi.spyOn(database, 'atomic').mockImplementationOnce((build) => atomic((q) => [...build(q), failingStatement(message)])),
    vi.spyOn(database, 'writeAsOne').mockImplementationOnce(async (build) => {
      const orphan = (q: Parameters<typeof build>[0]) =>
        q.insert(recipients).values({
          id: `rcp_orphan_${crypto.randomUUID()}`,
          companyId: crypto.randomUUID(),
          envelopeId: 'env_none',
          role: 'Nobody',
          type: 'signer',
          order: 1,
          position: 0,
          name: 'Nobody',
          email: 'nobody@example.test',
          status: 'sent',
        });
      const refused = await writeAsOne((q) => [...build(q), orphan(q)]).then(
        () => false,
        () => true,
      );
      if (!refused) throw new Error('The orphan row was accepted: the failure was not injected');
      throw new Error(message);
    }),
  ];
  return {
    mockRestore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}
