ALTER TABLE "companies" ADD COLUMN "text_message_countries" text[];--> statement-breakpoint
ALTER TABLE "verification_codes" ADD COLUMN "destination" text;--> statement-breakpoint
CREATE INDEX "verification_codes_company_texts" ON "verification_codes" USING btree ("company_id","channel","sent_at");