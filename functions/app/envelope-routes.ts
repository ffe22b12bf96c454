/** The envelope pages of the application, their paths relative to `/app` (functions/routes.ts mounts them). */
import type { AppPageRoute } from '../../src/company-app/company-app.js';
import { downloadEnvelopeDocument } from './envelope-document.js';
import { showEnvelopeList } from './envelope-list.js';
import { remindRecipientHandler } from './envelope-remind.js';
import { showEnvelopePage } from './envelope-show.js';
import { voidEnvelopeHandler } from './envelope-void.js';

export const envelopeRoutes: AppPageRoute[] = [
  ['/envelopes', 'GET', showEnvelopeList],
  ['/envelopes/:id', 'GET', showEnvelopePage],
  ['/envelopes/:id/document.pdf', 'GET', downloadEnvelopeDocument],
  ['/envelopes/:id/void', 'POST', voidEnvelopeHandler],
  ['/envelopes/:id/remind', 'POST', remindRecipientHandler],
];
