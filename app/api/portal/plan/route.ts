/** The account's plan and the catalogue (GET); a self-serve change (PUT, owner) that every key follows within seconds. */
import { changeOwnPlan, currentPlan, listPlans } from "@/lib/domain/plans";
import { planBody } from "@/lib/portal/schemas";
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({}, async ({ db, user }) => {
  const [current, plans] = await Promise.all([currentPlan(db, user.accountId), listPlans(db)]);
  return { current: current.id, plans };
});

export const PUT = portalRoute({ body: planBody }, async ({ db, user, actor, body }) =>
  changeOwnPlan(db, { accountId: user.accountId, plan: body.plan }, actor),
);
