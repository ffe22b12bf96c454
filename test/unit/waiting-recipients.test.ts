/**
 * Who may still act is one rule (src/domain/shared/waiting-recipients.ts): whose turn it is, the
 * conditional updates of signing and declining, the signing e-mail and the reminders all read it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RecipientStatus } from '../../src/data/schema.js';
import { isWaiting, waitingStatuses } from '../../src/domain/shared/waiting-recipients.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a waiting recipient', () => {
  it('is one who has not signed or declined', () => {
    const every: RecipientStatus[] = ['pending', 'sent', 'viewed', 'signed', 'declined'];
    expect(every.filter(isWaiting)).toEqual(['pending', 'sent', 'viewed']);
    expect([...waitingStatuses]).toEqual(['pending', 'sent', 'viewed']);
  });

  it('is stated in one place: no other file of src/ lists the waiting statuses', () => {
    const listing = readdirSync(join(root, 'src'), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
      .filter((file) => /'pending',\s*'sent',\s*'viewed'/.test(readFileSync(join(root, file), 'utf8')));
    expect(listing).toEqual(['src/domain/shared/waiting-recipients.ts']);
  });
});
