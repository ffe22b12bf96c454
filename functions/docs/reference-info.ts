/**
 * What the `/v1` OpenAPI document says of itself beyond its operations: the groups the reference
 * at /docs shows the operations in (every operation's `tags` names one of these), and its licence.
 */
export const documentTags = [
  {
    name: 'Authentication',
    description: 'Exchange an API key for a bearer token valid one hour; every other operation but the document download takes that token.',
  },
  { name: 'Templates', description: "The company's stored templates: their roles, fields and language, from which envelopes are sent." },
  { name: 'Contacts', description: "The company's address book of people to send to." },
  { name: 'Envelopes', description: 'Send a template for signature in one call, and read the signing links of what was sent.' },
  {
    name: 'Webhooks',
    description:
      'Subscriptions to the events of envelopes, their deliveries (test, replay, redeliver), secret rotation, and the download link of the finished PDF that `envelope.document_ready` carries. The events themselves are listed under Webhooks below the operations.',
  },
];

/** The API is the service's own, offered under no public licence. */
export const documentLicense = { name: 'Proprietary' };
