/** The language of the application's pages: English until a second catalogue joins (src/i18n/app-messages.ts). */
import { type AppMessages, appMessagesFor } from '../i18n/app-messages.js';

export const appMessages = (): AppMessages => appMessagesFor('en');
