import type { Metadata } from "next";
import { can } from "@/lib/shared/roles";
import Link from "next/link";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { listKeys } from "@/lib/domain/keys";
import { currentPlan } from "@/lib/domain/plans";
import { WEBHOOK_EVENTS, listWebhooks } from "@/lib/domain/webhooks";
import { portalDb } from "@/lib/server/portal-db";
import { WebhooksPanel } from "@/components/portal/webhooks/webhooks-panel";
import { ListenCommand } from "@/components/portal/webhooks/listen-command";
import { appUrl } from "@/lib/env";
import { listenCommand } from "@/lib/shared/listen-command";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const user = await requirePortalUser({ from: "/dashboard/webhooks" });
  const db = await portalDb();
  const [plan, webhooks, keys] = await Promise.all([
    currentPlan(db, user.accountId),
    listWebhooks(db, user.accountId),
    listKeys(db, user.accountId),
  ]);
  const testKey = keys.find((k) => k.env === "test" && k.state === "active") ?? null;
  const command = listenCommand({ origin: appUrl(), keyPrefix: testKey?.prefix ?? null, webhooks });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
      <p className="max-w-3xl text-sm text-muted">
        IV-rank, IV-change and no-trade alerts, delivered to your endpoint and signed per Standard Webhooks (
        <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed deliveries are
        retried 7 times over about 28 hours; an endpoint answering 410, or failing for 5 days, is disabled, and so are
        the webhooks of a revoked or expired key or a deactivated account; the reason is shown here.
      </p>
      {!plan.webhooks ? (
        <p
          className="max-w-3xl rounded-lg border border-warn/40 bg-warn-soft p-3 text-sm text-warn"
          data-testid="webhooks-plan-note"
        >
          Webhooks come with the Pro and Enterprise plans; your account is on {plan.nameA}.{" "}
          <Link href="/dashboard/plan" className="font-medium underline">
            Change your plan
          </Link>{" "}
          to register one.
        </p>
      ) : null}
      <WebhooksPanel
        initial={webhooks}
        keys={keys}
        events={WEBHOOK_EVENTS}
        canManage={can(user.role, "test_webhooks")}
        canRegister={plan.webhooks}
      />
      <ListenCommand command={command} keyName={testKey?.name ?? null} />
    </div>
  );
}
