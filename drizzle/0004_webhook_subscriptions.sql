DROP INDEX "webhook_deliveries_event";--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ALTER COLUMN "secret" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "error_type" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "secret_ciphertext" text NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "secret_key_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "disabled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
-- Attempt numbers used to be counted, then inserted, so two at once could share one: keep the first.
DELETE FROM "webhook_deliveries" AS later USING "webhook_deliveries" AS earlier WHERE later.ctid > earlier.ctid AND later.event_id = earlier.event_id AND later.subscription_id = earlier.subscription_id AND later.attempt = earlier.attempt;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_attempt" ON "webhook_deliveries" USING btree ("event_id","subscription_id","attempt");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription" ON "webhook_deliveries" USING btree ("subscription_id","created_at");