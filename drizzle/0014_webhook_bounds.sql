CREATE TABLE "webhook_redeliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "endpoint" text;--> statement-breakpoint
ALTER TABLE "webhook_redeliveries" ADD CONSTRAINT "webhook_redeliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_redeliveries" ADD CONSTRAINT "webhook_redeliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_redeliveries_pending" ON "webhook_redeliveries" USING btree ("subscription_id","event_id") WHERE "webhook_redeliveries"."settled_at" is null;--> statement-breakpoint
CREATE INDEX "webhook_redeliveries_company" ON "webhook_redeliveries" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_replays_company" ON "webhook_replays" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_subscriptions_endpoint" ON "webhook_subscriptions" USING btree ("company_id","endpoint") WHERE "webhook_subscriptions"."deleted_at" is null;