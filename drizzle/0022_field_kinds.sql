ALTER TABLE "envelope_fields" ADD COLUMN "settings" jsonb;--> statement-breakpoint
ALTER TABLE "template_fields" ADD COLUMN "settings" jsonb;