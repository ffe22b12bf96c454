CREATE TABLE "webhook_replays" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"since" timestamp (3) with time zone NOT NULL,
	"until" timestamp (3) with time zone NOT NULL,
	"events" jsonb NOT NULL,
	"total" integer NOT NULL,
	"cursor" text,
	"handed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"progressed_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_attempt";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "delivery_id" uuid;--> statement-breakpoint
-- Attempts made so far belong to their event's own delivery, whose id is uuidFromName(event_id.subscription_id) (src/lib/ids.ts).
UPDATE "webhook_deliveries" SET "delivery_id" = (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-5' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12))::uuid FROM (SELECT "id" AS attempt_id, encode(sha256(convert_to("event_id" || '.' || "subscription_id"::text, 'UTF8')), 'hex') AS h FROM "webhook_deliveries") AS named WHERE named.attempt_id = "webhook_deliveries"."id";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "delivery_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "origin" text DEFAULT 'event' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "sequence" integer;--> statement-breakpoint
-- Events recorded so far are numbered per envelope in the order they occurred.
UPDATE "webhook_events" SET "sequence" = numbered.n FROM (SELECT "id" AS event_id, row_number() OVER (PARTITION BY "envelope_id" ORDER BY "created_at", "id") AS n FROM "webhook_events" WHERE "envelope_id" IS NOT NULL) AS numbered WHERE numbered.event_id = "webhook_events"."id";--> statement-breakpoint
-- From now on the database numbers each envelope's events as they are written, whoever writes them.
-- The lock (per envelope, to the end of the transaction) makes two events written at once for one
-- envelope take turns, so the second sees the first's number.
CREATE FUNCTION "webhook_event_sequence"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."envelope_id" IS NOT NULL AND NEW."sequence" IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('webhook_events.sequence:' || NEW."envelope_id", 0));
    SELECT coalesce(max("sequence"), 0) + 1 INTO NEW."sequence" FROM "webhook_events" WHERE "envelope_id" = NEW."envelope_id";
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_events_sequence" BEFORE INSERT ON "webhook_events" FOR EACH ROW EXECUTE FUNCTION "webhook_event_sequence"();--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "previous_secret_ciphertext" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "previous_secret_key_id" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "previous_secret_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_replays" ADD CONSTRAINT "webhook_replays_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_replays" ADD CONSTRAINT "webhook_replays_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_replays_running" ON "webhook_replays" USING btree ("subscription_id") WHERE "webhook_replays"."finished_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_sequence" ON "webhook_events" USING btree ("envelope_id","sequence");--> statement-breakpoint
CREATE INDEX "webhook_events_created" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_attempt" ON "webhook_deliveries" USING btree ("delivery_id","attempt");