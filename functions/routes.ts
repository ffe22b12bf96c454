/**
 * The routing table: every endpoint of the service, one module each, mounted in this order.
 * Each module exports its OpenAPI `route` (which validates and documents) and its `handler`.
 */
import * as createToken from './auth/create-token.js';
import * as createContact from './contacts/create-contact.js';
import * as listContacts from './contacts/list-contacts.js';
import * as listTemplates from './templates/list-templates.js';
import * as sendEnvelope from './envelopes/send-envelope.js';
import * as getSigningLinks from './envelopes/get-signing-links.js';
import * as getTemplate from './templates/get-template.js';
import * as listEventKinds from './webhooks/list-event-kinds.js';
import * as listWebhooks from './webhooks/list-webhooks.js';
import * as createWebhook from './webhooks/create-webhook.js';
import * as deleteWebhook from './webhooks/delete-webhook.js';
import * as listDeliveries from './webhooks/list-deliveries.js';
import * as testWebhook from './webhooks/test-webhook.js';
import * as createCompany from './admin/create-company.js';
import * as putUser from './admin/put-user.js';
import * as createApiKey from './admin/create-api-key.js';
import * as rotateApiKey from './admin/rotate-api-key.js';
import * as revokeApiKey from './admin/revoke-api-key.js';
import * as importTemplate from './admin/import-template.js';
import * as voidEnvelope from './admin/void-envelope.js';
import * as getEnvelopeDocument from './admin/get-envelope-document.js';
import * as getEnvelopeAudit from './admin/get-envelope-audit.js';
import * as listCompanies from './admin/list-companies.js';
import * as listUsers from './admin/list-users.js';
import * as listApiKeys from './admin/list-api-keys.js';
import * as listEnvelopes from './admin/list-envelopes.js';

/** The public API under `/v1` (docs/api-reference.md, section 4). */
export const v1Endpoints = [
  createToken,
  listTemplates,
  getTemplate,
  listContacts,
  createContact,
  sendEnvelope,
  getSigningLinks,
  // The catalog first: its path would otherwise read as a subscription id.
  listEventKinds,
  listWebhooks,
  createWebhook,
  deleteWebhook,
  listDeliveries,
  testWebhook,
];

/** The management plane under `/admin/v1` (README, "The admin API"). */
export const adminEndpoints = [
  listCompanies,
  createCompany,
  listUsers,
  putUser,
  listApiKeys,
  createApiKey,
  rotateApiKey,
  revokeApiKey,
  importTemplate,
  listEnvelopes,
  voidEnvelope,
  getEnvelopeDocument,
  getEnvelopeAudit,
];
