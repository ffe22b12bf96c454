/**
 * Every language's catalogue, typed against the English one: a catalogue missing a key, or with a
 * key English does not have, does not compile (test/signing/language-catalogues.test.ts checks the same at
 * run time, and that every message parses).
 */
import { ar } from './catalogue/ar.js';
import { de } from './catalogue/de.js';
import { en } from './catalogue/en.js';
import { es } from './catalogue/es.js';
import { fr } from './catalogue/fr.js';
import { he } from './catalogue/he.js';
import { it } from './catalogue/it.js';
import { ja } from './catalogue/ja.js';
import { nl } from './catalogue/nl.js';
import { pl } from './catalogue/pl.js';
import { pt } from './catalogue/pt.js';
import { zhHans } from './catalogue/zh-Hans.js';
import type { Language } from './languages.js';

export type MessageKey = keyof typeof en;
/** A language's messages: exactly English's keys, each an ICU message. */
export type Catalogue = { readonly [K in MessageKey]: string };

export const catalogues: Readonly<Record<Language, Catalogue>> = { en, de, fr, es, it, pt, nl, pl, ja, 'zh-Hans': zhHans, ar, he };
