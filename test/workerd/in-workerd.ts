// Every file of this suite runs inside workerd; if a change of config ever ran it on Node, it
// would prove nothing about the runtime, so fail loudly instead.
if (typeof navigator === 'undefined' || navigator.userAgent !== 'Cloudflare-Workers') {
  throw new Error('test/workerd must run inside workerd: use `npm run test:workerd`.');
}
