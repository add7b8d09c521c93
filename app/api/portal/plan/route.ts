/** The account's plan and the catalogue (GET); a self-serve change (PUT, owner) that every key follows within seconds. */
import { changeOwnPlan, currentPlan, listPlans } from "@/lib/domain/plans";
import { planBody } from "@/lib/portal/schemas";
import { portalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const GET = portalRoute(async ({ user }) => {
  const db = await portalDb();
  const [current, plans] = await Promise.all([currentPlan(db, user.accountId), listPlans(db)]);
  return { current: current.id, plans };
});

export const PUT = portalRoute(
  async ({ request, user, actor }) => {
    const { plan } = planBody.parse(await readJson(request));
    return changeOwnPlan(await portalDb(), { accountId: user.accountId, plan }, actor);
  },
  { owner: true },
);
