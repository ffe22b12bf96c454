import type { PDFDocument } from 'pdf-lib';
import type { CertificateRecipient } from '../ports/pdf-maker.js';
import type { Typesetter } from './fonts/typesetter.js';
import { PageFlow, type TextStyle } from './page-flow.js';

type PdfLib = typeof import('pdf-lib');

export type Certificate = {
  envelopeId: string;
  title: string;
  senderEmail: string;
  senderName: string;
  completedAt: Date;
  documentPages: number;
  originalSha256: string;
  /** How many bytes at the start of the finished file are the original, unaltered. */
  originalBytes: number;
  signedContentSha256: string;
  /** How many bytes at the start of the finished file are the signed content. */
  signedContentBytes: number;
  consentVersion: string;
  consentText: string;
  sealedBy?: string[];
  recipients: CertificateRecipient[];
};

const LABEL_WIDTH = 112;

/** Seconds are what an audit trail is read at; an unusable date must not stop the certificate. */
const isoUtc = (at: Date) => (Number.isNaN(at.getTime()) ? '(unknown time)' : `${at.toISOString().slice(0, 19)}Z`);

/**
 * The certificate of completion, on new US Letter pages at the end of `pdf`, its text set by
 * `type` (which was given every string of `c`), so that each name shows as given, in its script.
 */
export function appendCertificatePages(lib: PdfLib, pdf: PDFDocument, type: Typesetter, c: Certificate): void {
  const { rgb } = lib;
  const grey = rgb(0.35, 0.35, 0.35);
  const body: TextStyle = { size: 9.5 };
  const label: TextStyle = { size: 9.5, bold: true };
  const note: TextStyle = { size: 8.5, color: grey };
  const hash: TextStyle = { size: 9, indent: 12 };
  const section = (flow: PageFlow, title: string) => {
    flow.gap(10);
    flow.keep(60); // a heading never ends a page alone
    flow.text(title, { bold: true, size: 12 });
    flow.gap(3);
  };

  const flow = new PageFlow(pdf, type, { text: 'Certificate of completion (continued)', style: { bold: true, size: 10, color: grey } });
  flow.text('Certificate of completion', { bold: true, size: 20 });
  flow.gap(4);
  flow.text(`How the ${c.documentPages}-page document before this certificate was sent and signed electronically.`, note);

  section(flow, 'Envelope');
  flow.row('Envelope ID', c.envelopeId, label, body, LABEL_WIDTH);
  flow.row('Title', c.title, label, body, LABEL_WIDTH);
  flow.row('Sent by', c.senderName, label, body, LABEL_WIDTH);
  flow.row('Sender', c.senderEmail, label, body, LABEL_WIDTH);
  flow.row('Completed at', `${isoUtc(c.completedAt)} (UTC)`, label, body, LABEL_WIDTH);

  section(flow, 'Document integrity (SHA-256)');
  flow.text(
    `Original: the document exactly as it was sent for signing, before any field was filled in. This file begins with it, unaltered: its first ${c.originalBytes} bytes are the original, byte for byte.`,
    body,
  );
  flow.text(c.originalSha256, hash);
  flow.gap(4);
  flow.text(
    `Signed content: the original followed by one incremental update that draws every signer's entries on it, before this certificate was added. It is the first ${c.signedContentBytes} bytes of this file, which the certificate follows as a further incremental update.`,
    body,
  );
  flow.text(c.signedContentSha256, hash);
  flow.gap(4);
  flow.text(
    `To check either, hash that many bytes from the start of the file: head -c ${c.originalBytes} file.pdf | sha256sum gives the original's hash above. A PDF reader shows each update as a revision of the document.`,
    note,
  );

  if (c.sealedBy?.length) {
    section(flow, 'Sealed by');
    for (const line of c.sealedBy) flow.text(line, body);
  }

  section(flow, 'Consent to do business electronically');
  flow.row('Version', c.consentVersion, label, body, LABEL_WIDTH);
  flow.gap(2);
  for (const paragraph of c.consentText.split(/\r?\n/)) {
    if (paragraph.trim() === '') flow.gap(5);
    else flow.text(paragraph, note);
  }

  section(flow, `Recipients (${c.recipients.length})`);
  c.recipients.forEach((recipient, index) => {
    flow.gap(6);
    flow.keep(70);
    flow.text(`${index + 1}. ${recipient.name}`, { bold: true, size: 10.5 });
    flow.row('E-mail', recipient.email, label, body, LABEL_WIDTH);
    flow.row('Role', recipient.role, label, body, LABEL_WIDTH);
    flow.row('Kind', recipient.kind === 'signer' ? 'signer' : 'cc (receives a copy)', label, body, LABEL_WIDTH);
    for (const event of recipient.events) {
      flow.keep(30);
      flow.row(isoUtc(event.at), event.what, { size: 9 }, body, LABEL_WIDTH);
      if (event.ip !== null || event.userAgent !== null) {
        const detail = `IP: ${event.ip ?? 'not recorded'}  ·  User agent: ${event.userAgent ?? 'not recorded'}`;
        flow.text(detail, { ...note, indent: LABEL_WIDTH, maxLines: 3 });
      }
    }
  });

  flow.footers(`Certificate of completion · Envelope ${c.envelopeId}`, { size: 8, color: grey });
}
