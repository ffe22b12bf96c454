/**
 * The queue's topics are named in one registry (src/domain/queue-topics.ts) that producers and the
 * consumers share. A topic's name is stored in outbox and queue rows and is part of a QStash callback
 * URL, so the names are pinned here: renaming one would strand the messages already queued under it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { queueTopics } from '../../src/domain/queue-topics.js';
import { queueConsumers } from '../../src/queue/consumers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const sourceFiles = (folder: string) =>
  readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));

describe('the registry of queue topics', () => {
  it('names every topic the service has ever queued, each once, with the names stored rows carry', () => {
    expect(Object.values(queueTopics).sort()).toEqual([
      'document.finish',
      'email.document-ready',
      'email.envelope-completed',
      'email.envelope-declined',
      'email.signing-request',
      'envelope.advance',
      'envelope.expire',
      'envelope.remind',
      'quota.release',
      'webhook.deliver',
      'webhook.dispatch',
    ]);
  });

  it('gives every topic a consumer, and the consumers no topic outside it', () => {
    expect(Object.keys(queueConsumers).sort()).toEqual(Object.values(queueTopics).sort());
    for (const topic of Object.values(queueTopics)) expect(typeof queueConsumers[topic], topic).toBe('function');
  });

  it('is the only place a topic is named: no file of src/ or functions/ writes one as a string', () => {
    const names = new Set<string>(Object.values(queueTopics));
    const quoted = (file: string) => [...readFileSync(join(root, file), 'utf8').matchAll(/['"]([a-z]+\.[a-z-]+)['"]/g)].map((match) => match[1]!);
    const named = ['src', 'functions']
      .flatMap(sourceFiles)
      .filter((file) => file !== 'src/domain/queue-topics.ts')
      .flatMap((file) =>
        quoted(file)
          .filter((name) => names.has(name))
          .map((name) => `${file}: ${name}`),
      );
    expect(named).toEqual([]);
  });
});
