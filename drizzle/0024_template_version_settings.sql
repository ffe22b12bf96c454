CREATE TABLE "template_versions" (
	"company_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"email_subject" text,
	"email_message" text,
	"expiry_days" integer,
	"reminders" jsonb,
	"signing_order" text NOT NULL,
	"share_signing_links" boolean NOT NULL,
	"language" text,
	"saved_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"saved_by" uuid,
	CONSTRAINT "template_versions_pk" PRIMARY KEY("template_id","version")
);
--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_saved_by_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- One row per version already saved (each has its document row). Earlier versions' settings were
-- not kept apart, so each takes the template's, but for the name its audit row recorded.
INSERT INTO "template_versions" ("company_id", "template_id", "version", "name", "email_subject", "email_message", "expiry_days", "reminders",
  "signing_order", "share_signing_links", "language", "saved_at", "saved_by")
SELECT d."company_id", d."template_id", d."version",
  coalesce((SELECT a."data"->>'name' FROM "audit_events" a
    WHERE a."company_id" = d."company_id" AND a."kind" IN ('template.imported', 'template.version_saved')
      AND a."data"->>'template_id' = d."template_id"::text AND coalesce((a."data"->>'version')::int, 1) = d."version"
    ORDER BY a."seq" DESC LIMIT 1), t."name"),
  t."email_subject", t."email_message", t."expiry_days", t."reminders", t."signing_order", t."share_signing_links", t."language",
  d."created_at", CASE WHEN d."version" = t."version" THEN t."updated_by" END
FROM "template_documents" d JOIN "templates" t ON t."id" = d."template_id"
ON CONFLICT DO NOTHING;
