/**
 * A stand-in for the signing domain (src/domain/signing/): the four verbs the signing page calls,
 * answering from links set up by the test (or the preview server). The page's tests prove the
 * HTTP layer with it; the real flows are proved against the real domain.
 */
import type { Services } from '../../src/services.js';
import {
  SigningRefused,
  type SignerContext,
  type SigningEnvelope,
  type SigningField,
  type SigningState,
  type SigningSubmission,
} from '../../src/domain/signing/signing-state.js';

type SignState = Extract<SigningState, { kind: 'sign' }>;
type SigningDocument = { bytes: Uint8Array; fileName: string; finished: boolean };

export type FakeLink = {
  state: SigningState;
  document?: SigningDocument | null;
  /** Replaces the default signing (refuse without consent or a required value, else signed). */
  sign?: (submission: SigningSubmission) => SigningState;
};

export type FakeCall =
  | { verb: 'open'; token: string; who: SignerContext }
  | { verb: 'sign'; token: string; submission: SigningSubmission; who: SignerContext }
  | { verb: 'decline'; token: string; reason: string; who: SignerContext }
  | { verb: 'document'; token: string };

export const fakeDomain = {
  links: new Map<string, FakeLink>(),
  calls: [] as FakeCall[],
  /** When set, every verb throws it (a failure of ours). */
  failure: null as Error | null,
  reset() {
    this.links.clear();
    this.calls.length = 0;
    this.failure = null;
  },
};

function linkOf(token: string): FakeLink | undefined {
  if (fakeDomain.failure) throw fakeDomain.failure;
  return fakeDomain.links.get(token);
}

export async function openSigningLink(_services: Services, token: string, who: SignerContext): Promise<SigningState> {
  fakeDomain.calls.push({ verb: 'open', token, who });
  return linkOf(token)?.state ?? { kind: 'invalid' };
}

export async function signAsRecipient(_services: Services, token: string, submission: SigningSubmission, who: SignerContext): Promise<SigningState> {
  fakeDomain.calls.push({ verb: 'sign', token, submission, who });
  const link = linkOf(token);
  if (!link) return { kind: 'invalid' };
  if (link.sign) return (link.state = link.sign(submission));
  if (link.state.kind !== 'sign') return link.state;
  const problems: SigningRefused['problems'] = [];
  if (!submission.consent) problems.push({ field: null, code: 'consent_missing' });
  for (const field of link.state.fields) {
    if (field.required && field.prefill === null && field.type !== 'date_signed' && !submission.values[field.id]?.trim()) problems.push({ field: field.id, code: 'fill_in' });
  }
  if (problems.length > 0) throw new SigningRefused(problems);
  link.state = { kind: 'signed', envelope: link.state.envelope, signedAt: new Date('2026-11-22T12:30:00.000Z') };
  return link.state;
}

export async function declineAsRecipient(_services: Services, token: string, reason: string, who: SignerContext): Promise<SigningState> {
  fakeDomain.calls.push({ verb: 'decline', token, reason, who });
  const link = linkOf(token);
  if (!link) return { kind: 'invalid' };
  if (link.state.kind !== 'sign' && link.state.kind !== 'not_your_turn') return link.state;
  link.state = { kind: 'declined', envelope: link.state.envelope, byThisRecipient: true };
  return link.state;
}

export async function signingDocument(_services: Services, token: string): Promise<SigningDocument | null> {
  fakeDomain.calls.push({ verb: 'document', token });
  const link = linkOf(token);
  return link?.document ?? null;
}

// ---------------------------------------------------------------------------------------------
// Sample data

/** A token of the service's shape: `rcp_` and 22 base62 characters, a dot, a 43-character MAC. */
export function sampleToken(seed: string, mac = 'M'): string {
  const id = `rcp_${seed.replace(/[^A-Za-z0-9]/g, '').padEnd(22, 'x').slice(0, 22)}`;
  return `${id}.${mac.replace(/[^A-Za-z0-9_-]/g, '').padEnd(43, 'Q').slice(0, 43)}`;
}

export function sampleEnvelope(overrides: Partial<SigningEnvelope> = {}): SigningEnvelope {
  return {
    id: 'env_0123456789abcdefghijkl',
    title: 'Mutual Non-Disclosure Agreement',
    message: 'Hi Cleo,\nPlease review and sign the NDA before our meeting on Friday.\nThanks, Olivia',
    senderEmail: 'olivia@acme.test',
    expiresAt: new Date('2026-12-22T12:00:00.000Z'),
    language: null,
    ...overrides,
  };
}

export const LETTER = { width: 612, height: 792 };

export function sampleFields(labels: Partial<Record<SigningField['type'], string>> = {}): SigningField[] {
  const field = (id: string, type: SigningField['type'], page: number, x: number, y: number, width: number, height: number, extra: Partial<SigningField> = {}) => ({
    id,
    type,
    label: labels[type] ?? null,
    page,
    x,
    y,
    width,
    height,
    required: true,
    prefill: null,
    ...extra,
  });
  return [
    field('6a1d1f50-1111-4a4a-8a8a-000000000001', 'text', 1, 72, 560, 220, 24, { label: labels.text ?? 'Company name' }),
    field('6a1d1f50-1111-4a4a-8a8a-000000000002', 'checkbox', 1, 72, 610, 18, 18, { label: labels.checkbox ?? 'I have read the terms', required: false }),
    field('6a1d1f50-1111-4a4a-8a8a-000000000003', 'initials', 1, 480, 700, 70, 36),
    field('6a1d1f50-1111-4a4a-8a8a-000000000004', 'signature', 2, 72, 560, 220, 50),
    field('6a1d1f50-1111-4a4a-8a8a-000000000005', 'name', 2, 72, 620, 220, 22, { prefill: 'Cleo Client' }),
    field('6a1d1f50-1111-4a4a-8a8a-000000000006', 'email', 2, 320, 620, 220, 22, { prefill: 'cleo@example.com' }),
    field('6a1d1f50-1111-4a4a-8a8a-000000000007', 'date_signed', 2, 320, 575, 140, 22),
  ];
}

export function signState(overrides: Partial<Omit<SignState, 'kind'>> = {}): SignState {
  return {
    kind: 'sign',
    envelope: sampleEnvelope(),
    recipient: { id: 'rcp_sample', name: 'Cleo Client', email: 'cleo@example.com' },
    pages: [LETTER, LETTER],
    fields: sampleFields(),
    ...overrides,
  };
}
