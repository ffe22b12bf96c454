import type { EventKind } from '../../data/event-kinds.js';

export { type EventKind, testEventKind } from '../../data/event-kinds.js';

/** Every event kind a subscription may ask for, with what it means: the catalog of GET /v1/webhooks/events. */
export const eventCatalog = {
  'envelope.sent': 'The envelope was sent: its signers are being e-mailed.',
  'envelope.viewed': 'A signer opened the document for the first time.',
  'envelope.signed': 'A signer signed (one event per signer).',
  'envelope.declined': 'A signer declined, with a reason: the envelope is closed.',
  'envelope.voided': 'The envelope was voided: its links no longer work.',
  'envelope.expired': 'The envelope expired before everyone signed.',
  'envelope.completed': 'Every signer has signed; the finished PDF follows.',
  'envelope.document_ready': 'The finished, signed PDF is ready; the event carries it (base64) with its SHA-256 and a download link valid 24 hours.',
} as const satisfies { readonly [Kind in EventKind]: string };

export const eventKinds = Object.keys(eventCatalog) as EventKind[];
