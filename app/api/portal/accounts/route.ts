/** The accounts the signed-in user belongs to, with their role in each and which one the portal acts on. */
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({}, async ({ user }) => ({ current: user.accountId, accounts: user.accounts }));
