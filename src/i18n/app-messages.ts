/**
 * The company application's words (app-catalogue/), built as the signing page's are
 * (`buildMessages`). English only so far: a language joins by adding its catalogue here, typed
 * against English so that a missing or extra key does not compile; a language without one is
 * answered in English.
 */
import { appEn } from './app-catalogue/en.js';
import { type Language, type Messages, buildMessages } from './index.js';

export type AppMessageKey = keyof typeof appEn;
export type AppCatalogue = { readonly [K in AppMessageKey]: string };
export type AppMessages = Messages<AppMessageKey>;

export const appCatalogues: Partial<Record<Language, AppCatalogue>> = { en: appEn };

/** The languages the application speaks. */
export const appLanguages = Object.keys(appCatalogues) as Language[];

const made = new Map<Language, AppMessages>();

export function appMessagesFor(language: Language): AppMessages {
  const spoken = appCatalogues[language] ? language : 'en';
  let messages = made.get(spoken);
  if (!messages) made.set(spoken, (messages = buildMessages(spoken, appCatalogues[spoken] ?? appEn)));
  return messages;
}
