ALTER TABLE "template_documents" DROP CONSTRAINT "template_documents_template_id_unique";--> statement-breakpoint
DROP INDEX "template_fields_template";--> statement-breakpoint
DROP INDEX "template_roles_name";--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "template_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "template_documents" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "template_fields" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "template_roles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "archived_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "updated_by" uuid;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "template_documents_version" ON "template_documents" USING btree ("template_id","version");--> statement-breakpoint
CREATE INDEX "template_fields_template" ON "template_fields" USING btree ("template_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "template_roles_name" ON "template_roles" USING btree ("template_id","version","name");