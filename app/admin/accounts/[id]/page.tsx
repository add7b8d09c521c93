import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionButton } from "@/components/admin/action-button";
import { ROLE_LABELS } from "@/lib/shared/roles";
import { ACCOUNT_STATUS_LABELS } from "@/lib/shared/account-status";
import { utc } from "@/components/admin/format";
import { OverviewChart } from "@/components/admin/overview-chart";
import { PlanForm } from "@/components/admin/plan-form";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, Cell, Row } from "@/components/admin/table";
import { Badge, type Tone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Card, PageHeader, Section } from "@/components/ui/page";
import { accountDetail, isAccountId, type AccountDetail } from "@/lib/domain/admin-accounts";
import { DomainError } from "@/lib/domain/errors";
import { PLAN_IDS } from "@/lib/domain/plans-catalogue";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

const KEY_TONE: Record<AccountDetail["keys"][number]["state"], Tone> = {
  active: "ok",
  inactive: "neutral",
  revoked: "bad",
  expired: "neutral",
};

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
          {a.status === "active" ? (
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
          ) : a.status === "inactive" ? (
            <ActionButton
              path={`${base}/status`}
              body={{ status: "active" }}
              label="Reactivate"
              name="Reactivate the account"
              title={`Reactivate account ${a.name}?`}
              effect="Its members can sign in again; the keys and webhooks the deactivation stopped work again within 5 seconds."
            />
          ) : null}
        </Card>
      </Section>
      <Section id="members-h" title="Members">
        <AdminTable
          caption="Members"
          columns={[
            { label: "E-mail" },
            { label: "Role", width: "w-28" },
            { label: "Verified", width: "w-24" },
            { label: "Admin", width: "w-24" },
            { label: "Change", width: "w-56", hidden: true },
          ]}
        >
          {a.members.map((m) => (
            <Row key={m.userId}>
              <Cell label="E-mail">{m.email}</Cell>
              <Cell label="Role">{ROLE_LABELS[m.role]}</Cell>
              <Cell label="Verified">{m.verified ? "yes" : "no"}</Cell>
              <Cell label="Admin">{m.admin ? <Badge tone="info">admin</Badge> : "no"}</Cell>
              <Cell label="Change">
                {m.admin ? (
                  m.userId === me.userId ? (
                    <span className="text-xs text-muted">You cannot remove your own flag.</span>
                  ) : (
                    <ActionButton
                      path={`${base}/members/${m.userId}/admin`}
                      body={{ admin: false }}
                      label="Remove admin"
                      name={`Remove admin: ${m.email}`}
                      title={`Remove the admin flag of ${m.email}?`}
                      effect={`${m.email} loses the admin console at their next request. The last admin cannot be removed.`}
                      tone="danger"
                    />
                  )
                ) : (
                  <ActionButton
                    path={`${base}/members/${m.userId}/admin`}
                    body={{ admin: true }}
                    label="Make admin"
                    name={`Make admin: ${m.email}`}
                    title={`Make ${m.email} an admin?`}
                    effect={`${m.email} gets the admin console: every account, key, request and licensing state.`}
                  />
                )}
              </Cell>
            </Row>
          ))}
        </AdminTable>
      </Section>
      <Section id="keys-h" title="Keys">
        {a.keys.length === 0 ? (
          <EmptyState title="This account has no keys." />
        ) : (
          <AdminTable
            caption="Keys"
            columns={[
              { label: "Name" },
              { label: "Prefix", width: "w-36" },
              { label: "Environment", width: "w-28" },
              { label: "Status", width: "w-28" },
              { label: "Created and last used", width: "w-52" },
              { label: "Change", width: "w-36", hidden: true },
            ]}
          >
            {a.keys.map((k) => (
              <Row key={k.id}>
                <Cell label="Name">{k.name}</Cell>
                <Cell label="Prefix">
                  <code className="text-xs">{k.prefix}</code>
                </Cell>
                <Cell label="Environment">
                  <Badge tone={k.env === "test" ? "neutral" : "info"}>{k.env}</Badge>
                </Cell>
                <Cell label="Status">
                  <Badge tone={KEY_TONE[k.state]}>{k.state}</Badge>
                </Cell>
                <Cell label="Created and last used" className="text-xs tabular-nums">
                  <span className="block">created {utc(k.createdAt)}</span>
                  <span className="block text-muted">last used {k.lastUsedAt ? utc(k.lastUsedAt) : "never"}</span>
                </Cell>
                <Cell label="Change">
                  {k.status === "active" ? (
                    <ActionButton
                      path={`${base}/keys/${k.id}/status`}
                      body={{ status: "inactive" }}
                      label="Deactivate"
                      name={`Deactivate key ${k.prefix}`}
                      title={`Deactivate key ${k.prefix}… (${k.name})?`}
                      effect={`Calls with this ${k.env} key of ${a.name} get 403 inactive_key within 5 seconds on every server; reactivating restores it.`}
                      reason
                      tone="danger"
                    />
                  ) : k.status === "inactive" ? (
                    <ActionButton
                      path={`${base}/keys/${k.id}/status`}
                      body={{ status: "active" }}
                      label="Reactivate"
                      name={`Reactivate key ${k.prefix}`}
                      title={`Reactivate key ${k.prefix}… (${k.name})?`}
                      effect={`This ${k.env} key of ${a.name} works again within 5 seconds.`}
                    />
                  ) : (
                    <span className="text-xs text-muted">No change: {k.state}</span>
                  )}
                </Cell>
              </Row>
            ))}
          </AdminTable>
        )}
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
          <AdminTable
            caption="Calls per endpoint, 30 days"
            columns={[{ label: "Endpoint" }, { label: "Calls", width: "w-32" }]}
          >
            {[...byEndpoint].map(([endpoint, calls]) => (
              <Row key={endpoint}>
                <Cell label="Endpoint">
                  <code className="text-xs">{endpoint}</code>
                </Cell>
                <Cell label="Calls" className="tabular-nums">
                  {calls.toLocaleString("en-US")}
                </Cell>
              </Row>
            ))}
          </AdminTable>
        ) : null}
      </Section>
    </div>
  );
}
