/** Each Worker's start refuses an env without the documents' R2 bucket, naming the binding and what to add. */
import { describe, expect, it } from 'vitest';
import { documentsBindingProblems, documentsBucket } from '../../src/entries/documents-binding.js';

const bucket = { get: async () => null, createMultipartUpload: async () => ({}) };
const refusal =
  'The PDF Worker\'s configuration is incomplete: DOCUMENTS must be an R2 bucket binding ([[r2_buckets]] binding = "DOCUMENTS", bucket_name = "esign-documents").';

describe('the DOCUMENTS binding', () => {
  it('takes an R2 bucket', () => {
    expect(documentsBindingProblems({ DOCUMENTS: bucket })).toEqual([]);
    expect(documentsBucket({ DOCUMENTS: bucket }, 'The PDF Worker')).toBe(bucket);
  });

  it.each([
    ['missing', {}],
    ['a string (a var of that name)', { DOCUMENTS: 'esign-documents' }],
    ['another kind of binding', { DOCUMENTS: { get: async () => null, put: async () => null } }],
  ])('refuses it %s, naming it', (_what, env) => {
    expect(() => documentsBucket(env, 'The PDF Worker')).toThrow(refusal);
  });
});
