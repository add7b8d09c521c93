/**
 * The Owner deletes the account the portal acts on, confirming with its name or their e-mail: every key is revoked at
 * once and every member is signed out (lib/domain/account-deletion.ts, docs/teams.md).
 */
import { deleteAccount } from "@/lib/domain/account-deletion";
import { deleteAccountBody } from "@/lib/portal/schemas";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";

export const DELETE = portalRoute({ body: deleteAccountBody }, async ({ db, user, actor, body }) =>
  deleteAccount(db, { accountId: user.accountId, confirm: body.confirm }, actor),
);
