CREATE TABLE "queued_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"topic" text NOT NULL,
	"body" jsonb NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "queued_messages_due" ON "queued_messages" USING btree ("queue","due_at");