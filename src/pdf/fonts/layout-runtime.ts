/**
 * fontkit's shapers for the Indic scripts (and the other syllable-based ones) run a generator
 * compiled for regenerator, whose runtime the build expects as a global: without it every
 * Devanagari, Bengali, Tamil… name throws at layout. Loaded before the first layout.
 */
import 'regenerator-runtime/runtime.js';
