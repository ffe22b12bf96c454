DROP INDEX "recipients_token";--> statement-breakpoint
ALTER TABLE "recipients" DROP COLUMN "signing_token_hash";