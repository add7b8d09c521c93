ALTER TABLE "webhooks" ADD COLUMN "disabled_by" text;--> statement-breakpoint
-- Webhooks already outliving their key or account (lib/domain/webhook-lifecycle.ts words the same reasons).
UPDATE "webhooks" w SET "status" = 'disabled', "disabled_by" = 'key_revoked', "status_changed_at" = now(),
  "disabled_reason" = 'The API key ' || k."prefix" || '… that registered it was revoked; register the webhook again with an active key.'
FROM "api_keys" k WHERE k."id" = w."key_id" AND k."status" = 'revoked' AND w."status" IN ('active', 'paused');--> statement-breakpoint
UPDATE "webhooks" w SET "status" = 'disabled', "disabled_by" = 'key_expired', "status_changed_at" = now(),
  "disabled_reason" = 'The API key ' || k."prefix" || '… that registered it expired at ' || to_char(k."expires_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '; register the webhook again with an active key.'
FROM "api_keys" k WHERE k."id" = w."key_id" AND k."expires_at" <= now() AND w."status" IN ('active', 'paused');--> statement-breakpoint
UPDATE "webhooks" w SET "status" = 'disabled', "disabled_by" = 'key_deactivated', "status_changed_at" = now(),
  "disabled_reason" = 'The API key ' || k."prefix" || '… that registered it is deactivated; activating the key turns the webhook back on.'
FROM "api_keys" k WHERE k."id" = w."key_id" AND k."status" = 'inactive' AND k."disabled_by" IS NULL AND w."status" = 'active';--> statement-breakpoint
UPDATE "webhooks" w SET "status" = 'disabled', "disabled_by" = 'account_deactivated', "status_changed_at" = now(),
  "disabled_reason" = 'The account is deactivated; reactivating it turns the webhook back on.'
FROM "accounts" a WHERE a."id" = w."account_id" AND a."status" = 'inactive' AND w."status" = 'active';
