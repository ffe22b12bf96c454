/** A signer's browser without JavaScript, against the `npm run dev` server of the e2e run. */
import { inject } from 'vitest';
import { signingBrowser } from '../support/signing-browser.js';

export const base = () => inject('e2eBaseUrl');
export const { page, signThroughPage } = signingBrowser(base);
