/** The body of POST /v1/envelopes/from-template (spec 4.1), once its shape and bounds are valid. */
export type RecipientInput = { role: string; name: string; email: string; contact_number?: string | null | undefined };

export type SendRequest = {
  template_id: string;
  recipients: RecipientInput[];
  sender_email?: string | undefined;
  title?: string | undefined;
  email_subject?: string | undefined;
  email_message?: string | undefined;
};
