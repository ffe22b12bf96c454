ALTER TABLE "brand_settings" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "brand_settings" ADD COLUMN "logo" "bytea";--> statement-breakpoint
ALTER TABLE "brand_settings" ADD COLUMN "logo_type" text;--> statement-breakpoint
ALTER TABLE "brand_settings" ADD COLUMN "accent_color" text;--> statement-breakpoint
ALTER TABLE "brand_settings" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "language" text;