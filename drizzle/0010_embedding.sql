CREATE TABLE "embedding_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"allowed_origins" text[] NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "embedding_settings" ADD CONSTRAINT "embedding_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;