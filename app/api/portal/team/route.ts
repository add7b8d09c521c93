/** The account's team (GET): members with role, last sign-in and who invited them, and pending invitations. */
import { listTeam } from "@/lib/domain/team";
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({}, async ({ db, user }) => listTeam(db, user.accountId));
