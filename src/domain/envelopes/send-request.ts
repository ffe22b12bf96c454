/**
 * A send as the domain takes it: the body of POST /v1/envelopes/from-template once its shape and
 * bounds are valid. The endpoint's schema (functions/envelopes/envelope-schemas.ts) validates and
 * documents it, and the typecheck proves that schema yields exactly this.
 */
export type RecipientInput = {
  /** Name of an unlocked role of the template, exactly as the template spells it. */
  role: string;
  name: string;
  email: string;
  contact_number?: string | null | undefined;
};

export type SendRequest = {
  template_id: string;
  recipients: RecipientInput[];
  sender_email?: string | undefined;
  title?: string | undefined;
  email_subject?: string | undefined;
  email_message?: string | undefined;
};
