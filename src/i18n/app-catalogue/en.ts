/**
 * The company application's words in English, and those of its sign-in e-mail: the reference
 * every other language's catalogue of the application must match key for key (app-messages.ts).
 * ICU MessageFormat, as the signing page's catalogue: `{name}` a value, `<b>…</b>` emphasis; values
 * are escaped, never markup.
 */
export const appEn = {
  'page.skipLink': 'Skip to the content',
  'page.appName': 'E-signature',
  'page.title': '{page} – {app}',
  'page.errorPrefix': 'Error:',

  'role.owner': 'Owner',
  'role.admin': 'Administrator',
  'role.member': 'Member',
  'role.viewer': 'Viewer',
  'role.owner.summary': 'You manage API keys, users, webhooks and the settings, and see every envelope.',
  'role.admin.summary': 'You manage API keys, users, webhooks and the settings, and see every envelope.',
  'role.member.summary': 'You see templates and envelopes, and may void or remind the envelopes you sent.',
  'role.viewer.summary': 'You see templates and envelopes; you cannot change anything.',

  'signIn.title': 'Sign in',
  'signIn.lead': 'Enter the e-mail address you use at your company. We will e-mail you a link to sign in: there is no password.',
  'signIn.email': 'E-mail address',
  'signIn.submit': 'E-mail me a sign-in link',
  'signIn.invalidEmail': 'Enter an e-mail address, like name@example.com.',
  'signIn.ended': 'Your session has ended. Sign in again to go on.',
  'signIn.signedOut': 'You have signed out.',

  'checkEmail.title': 'Check your e-mail',
  'checkEmail.lead': 'If <b>{email}</b> belongs to a user of a company here, a sign-in link is on its way.',
  'checkEmail.body': 'The link works once, within 15 minutes. Nothing arrived after a few minutes? Look in your spam folder, or ask for a new link.',
  'checkEmail.again': 'Ask for a new link',

  'link.title': 'Sign in',
  'link.lead': 'You are about to sign in as <b>{email}</b>.',
  'link.submit': 'Sign in',
  'link.why': 'This step keeps your link from being used up by programs that open the links in e-mails.',

  'linkInvalid.title': 'This link no longer works',
  'linkInvalid.lead': 'A sign-in link works once, within 15 minutes. This one has been used, has expired, or is not one of ours.',
  'linkInvalid.again': 'Ask for a new link',

  'noCompany.title': 'No company to sign in to',
  'noCompany.lead': 'This address is no longer an active user of any company here. Ask an owner or an administrator of your company to add you again.',

  'choose.title': 'Choose a company',
  'choose.lead': 'You are a user of several companies. Choose the one to work in; you can switch at any time.',
  'choose.as': 'as {role}',
  'choose.submit': 'Open {company}',
  'choose.current': '(current)',

  'shell.nav': 'Main',
  'shell.home': 'Overview',
  'shell.account': 'Signed in as {name}',
  'shell.signOut': 'Sign out',
  'shell.switch': 'Switch company',

  'home.title': 'Overview',
  'home.lead': 'You are signed in to <b>{company}</b> as {role}.',
  'home.details': 'Your account',
  'home.company': 'Company',
  'home.name': 'Name',
  'home.email': 'E-mail address',
  'home.role': 'Role',

  'forbidden.title': 'This form cannot be sent',
  'forbidden.lead': "It did not come from this application's own page, or the page has expired.",
  'forbidden.body': 'Go back, reload the page and try again.',
  'notFound.title': 'Page not found',
  'notFound.lead': 'There is no page at this address.',
  'notFound.home': 'Go to the overview',
  'notAllowed.title': 'Not possible here',
  'notAllowed.lead': 'This page cannot be used that way. Go back and use its buttons and links.',
  'tooLarge.title': 'Too much to send',
  'tooLarge.lead': 'What was sent is larger than this page accepts.',
  'error.title': 'Something went wrong',
  'error.retry': 'The service could not answer just now. Try again in a moment.',
  'error.later': 'We could not complete this. Try again later.',

  'email.signIn.subject': 'Your sign-in link',
  'email.signIn.preheader': 'Sign in to {app}: the link works once, within {minutes} minutes.',
  'email.signIn.lead': 'Someone, we hope you, asked to sign in to {app} as <b>{email}</b>.',
  'email.signIn.action': 'Sign in',
  'email.signIn.linkAsText': 'If the button does not work, copy this link into your browser:',
  'email.signIn.notes': 'The link works once, within {minutes} minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without the link.',
  'email.signIn.footer': 'You received this e-mail because a sign-in link to {app} was asked for with this address.',
} as const;
