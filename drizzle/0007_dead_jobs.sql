CREATE TABLE "dead_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"body" jsonb NOT NULL,
	"attempts" integer NOT NULL,
	"last_error" text NOT NULL,
	"failed_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queued_messages" ADD COLUMN "last_error" text;--> statement-breakpoint
CREATE INDEX "dead_jobs_failed" ON "dead_jobs" USING btree ("failed_at");