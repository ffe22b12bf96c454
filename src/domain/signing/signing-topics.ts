/** Queue topics of the signing ceremony's side effects. */
export const signingTopics = {
  /** After a signature: e-mail the next signers in sequential order. */
  advance: 'envelope.advance',
  /** After completion: make the finished PDF. */
  finish: 'document.finish',
  /** To the sender: everyone has signed. */
  completedEmail: 'email.envelope-completed',
  /** To the sender: a signer declined. */
  declinedEmail: 'email.envelope-declined',
  /** To every recipient: the finished PDF is ready. */
  documentReadyEmail: 'email.document-ready',
} as const;
