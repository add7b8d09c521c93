import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionButton } from "@/components/admin/action-button";
import { ACCOUNT_STATUS_LABELS } from "@/lib/shared/account-status";
import { utc } from "@/components/admin/format";
import { OverviewChart } from "@/components/admin/overview-chart";
import { PlanForm } from "@/components/admin/plan-form";
import { requireAdmin } from "@/components/admin/require-admin";
import { ENDPOINT_COLUMNS, keyColumns, memberColumns } from "@/components/admin/account-columns";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Card, PageHeader, Section } from "@/components/ui/page";
import { accountDetail, isAccountId, type AccountDetail } from "@/lib/domain/admin-accounts";
import { DomainError } from "@/lib/domain/errors";
import { PLAN_IDS } from "@/lib/domain/plans-catalogue";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

/** The account's calls per day over its 30 days, by outcome (2xx, 4xx, 5xx). */
function usageSeries(a: AccountDetail, now: Date) {
  const today = Math.floor(now.getTime() / 86_400_000);
  const days = Array.from({ length: a.usage.days }, (_, i) =>
    new Date((today - (a.usage.days - 1 - i)) * 86_400_000).toISOString().slice(0, 10),
  );
  const index = new Map(days.map((d, i) => [d, i]));
  const series = { "2xx": days.map(() => 0), "4xx": days.map(() => 0), "5xx": days.map(() => 0) };
  for (const r of a.usage.rows) {
    const i = index.get(r.day);
    if (i === undefined) continue;
    series["2xx"][i] += r.ok;
    series["4xx"][i] += r.clientErrors;
    series["5xx"][i] += r.serverErrors;
  }
  return { days, series: Object.entries(series).map(([name, values]) => ({ name, values })) };
}

/** Deactivating an active account (with its effect in numbers) or reactivating an inactive one. */
function AccountStatusChange({ a, base }: { a: AccountDetail; base: string }) {
  if (a.status === "active")
    return (
      <ActionButton
        path={`${base}/status`}
        body={{ status: "inactive" }}
        label="Deactivate"
        name="Deactivate the account"
        title={`Deactivate account ${a.name}?`}
        effect={`Its ${a.members.length} member(s) can no longer sign in, and its ${a.keys.filter((k) => k.status === "active").length} active key(s) and its webhooks stop within 5 seconds on every server.`}
        reason
        tone="danger"
      />
    );
  if (a.status === "inactive")
    return (
      <ActionButton
        path={`${base}/status`}
        body={{ status: "active" }}
        label="Reactivate"
        name="Reactivate the account"
        title={`Reactivate account ${a.name}?`}
        effect="Its members can sign in again; the keys and webhooks the deactivation stopped work again within 5 seconds."
      />
    );
  return null;
}

export default async function AccountAdminPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const me = await requireAdmin(`/admin/accounts/${encodeURIComponent(id)}`);
  if (!isAccountId(id)) notFound();
  const now = new Date();
  const a = await accountDetail(await portalDb(), id, now).catch((err) => {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  });
  const base = `/api/admin/accounts/${a.accountId}`;
  const byEndpoint = new Map<string, number>();
  for (const r of a.usage.rows) byEndpoint.set(r.endpointId, (byEndpoint.get(r.endpointId) ?? 0) + r.calls);
  const usage = usageSeries(a, now);
  const ctx = { base, accountName: a.name, adminUserId: me.userId };
  return (
    <div className="space-y-8">
      <PageHeader
        title={a.name}
        description={
          <>
            Account <code>{a.accountId}</code> · created {utc(a.createdAt)}
          </>
        }
        actions={
          <Badge tone={a.status === "active" ? "ok" : "bad"} className="text-sm">
            {ACCOUNT_STATUS_LABELS[a.status]}
          </Badge>
        }
      />
      <Section id="plan-h" title="Plan and status">
        <Card className="flex flex-wrap items-end justify-between gap-4">
          <PlanForm accountId={a.accountId} accountName={a.name} plan={a.plan} plans={PLAN_IDS} />
          <AccountStatusChange a={a} base={base} />
        </Card>
      </Section>
      <Section id="members-h" title="Members">
        <DataTable caption="Members" columns={memberColumns(ctx)} rows={a.members} rowKey={(m) => m.userId} wrap />
      </Section>
      <Section id="keys-h" title="Keys">
        <DataTable
          caption="Keys"
          columns={keyColumns(ctx)}
          rows={a.keys}
          rowKey={(k) => k.id}
          empty={<EmptyState title="This account has no keys." />}
          wrap
        />
      </Section>
      <Section id="usage-h" title={`Usage (30 days): ${a.usage.totalCalls.toLocaleString("en-US")} calls`}>
        <OverviewChart
          id="account-usage"
          title="Calls per day by outcome"
          days={usage.days}
          kind="stacked"
          series={usage.series}
          summary={`${a.usage.totalCalls.toLocaleString("en-US")} calls in 30 days.`}
          calls={usage.series.reduce((n, s) => n + s.values.reduce((m, v) => m + v, 0), 0)}
          empty="No calls in the last 30 days."
        />
        {byEndpoint.size > 0 ? (
          <DataTable
            caption="Calls per endpoint, 30 days"
            columns={ENDPOINT_COLUMNS}
            rows={[...byEndpoint]}
            rowKey={([endpoint]) => endpoint}
            wrap
          />
        ) : null}
      </Section>
    </div>
  );
}
