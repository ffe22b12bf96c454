ALTER TABLE "template_documents" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "signed_document_key" text;--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "signed_document_size" integer;--> statement-breakpoint
ALTER TABLE "template_documents" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "template_documents" ADD COLUMN "size" integer;