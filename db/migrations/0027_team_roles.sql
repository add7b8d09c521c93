-- Teams with roles (issue 32): Owner, Admin, Developer, Viewer; invitations; the acting member's e-mail in the audit log.
-- Existing rows keep their meaning: an owner stays Owner, a "member" (who could only read) becomes Viewer; an account
-- with two owners keeps its first as Owner (the others become Admin) and one without an owner gets its first member.
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_digest" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"accepted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_token_digest_unique" UNIQUE("token_digest")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "current_account_id" uuid;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "invited_by" uuid;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_email" text;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitations_account_idx" ON "invitations" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
UPDATE "memberships" SET "role" = 'viewer' WHERE "role" = 'member';--> statement-breakpoint
UPDATE "memberships" m SET "role" = 'admin' WHERE m."role" = 'owner' AND EXISTS (
  SELECT 1 FROM "memberships" o WHERE o."account_id" = m."account_id" AND o."role" = 'owner'
    AND (o."created_at", o."user_id") < (m."created_at", m."user_id"));--> statement-breakpoint
UPDATE "memberships" m SET "role" = 'owner' WHERE (m."account_id", m."user_id") IN (
  SELECT DISTINCT ON (f."account_id") f."account_id", f."user_id" FROM "memberships" f
  WHERE NOT EXISTS (SELECT 1 FROM "memberships" o WHERE o."account_id" = f."account_id" AND o."role" = 'owner')
  ORDER BY f."account_id", f."created_at", f."user_id");--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_role_check" CHECK ("role" IN ('owner', 'admin', 'developer', 'viewer'));--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_role_check" CHECK ("role" IN ('owner', 'admin', 'developer', 'viewer'));--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_one_owner_idx" ON "memberships" USING btree ("account_id") WHERE role = 'owner';