/**
 * A short random tag, for names, addresses and keys that must not meet those of another test:
 * the suites share a database (and the e2e run a server), so tests keep apart by what they make.
 */
export const unique = () => crypto.randomUUID().slice(0, 8);
