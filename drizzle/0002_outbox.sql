CREATE TABLE "outbox_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"body" jsonb NOT NULL,
	"due_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"relayed_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD COLUMN "envelope_id" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_messages_unrelayed" ON "outbox_messages" USING btree ("created_at") WHERE "outbox_messages"."relayed_at" is null;--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_envelope_id_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."envelopes"("id") ON DELETE cascade ON UPDATE no action;