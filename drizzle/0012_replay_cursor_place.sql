ALTER TABLE "webhook_replays" ADD COLUMN "cursor_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_replays" ADD COLUMN "cursor_sequence" integer;--> statement-breakpoint
-- A replay running as this is applied keeps its place: taken from its cursor's event while that is still kept.
UPDATE "webhook_replays" AS "replay" SET "cursor_at" = "event"."created_at", "cursor_sequence" = coalesce("event"."sequence", 0) FROM "webhook_events" AS "event" WHERE "event"."id" = "replay"."cursor";
