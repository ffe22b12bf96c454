/**
 * The webhook body that carries a document, made inside workerd from the R2 store, whose bodies
 * take a reader's own buffer: the signing pass (parts lent, each overwritten by the next) and the
 * sending pass (parts kept) give the same bytes, across R2's 5 MiB part and base64's groups of three.
 */
import { env } from 'cloudflare:workers';
import type { R2Bucket } from '@cloudflare/workers-types/index.js';
import { describe, expect, it } from 'vitest';
import { R2DocumentStore } from '../../src/adapters/production/r2-document-store.js';
import { bodyLength, bodyParts, documentBody } from '../../src/domain/webhooks/streamed-body.js';
import { patterned, streamed } from '../support/document-store-contract.js';

const store = new R2DocumentStore(env.DOCUMENTS as R2Bucket);
const MiB = 1024 * 1024;

const concatenated = (parts: Uint8Array[]) => {
  const whole = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.byteLength;
  }
  return whole;
};

describe('a webhook body read from R2 in workerd', () => {
  it.each([0, 2, 65_537, 5 * MiB + 1])('of a %i-byte document: the same bytes lent one part at a time as kept whole', async (size) => {
    const pdf = patterned(size, 3);
    const stored = await store.put(streamed(pdf, 65_537), { maxBytes: size });
    const body = documentBody('{"content_base64":"MARK"}', 'MARK', stored);
    // R2's body is a byte stream: the body reads the document into a buffer of its own.
    const r2Body = (await store.get(stored.key))!.body;
    await r2Body.getReader({ mode: 'byob' }).cancel();
    const copied: Uint8Array[] = [];
    for await (const part of bodyParts(store, body, { lent: true })) copied.push(part.slice());
    const kept: Uint8Array[] = [];
    for await (const part of bodyParts(store, body)) kept.push(part);
    const lentText = new TextDecoder().decode(concatenated(copied));
    const keptText = new TextDecoder().decode(concatenated(kept));
    expect(lentText.length).toBe(bodyLength(body));
    expect(lentText === keptText).toBe(true);
    expect(lentText === `{"content_base64":"${Buffer.from(pdf).toString('base64')}"}`).toBe(true);
    await store.delete(stored.key);
  });
});
