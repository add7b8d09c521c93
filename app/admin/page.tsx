import type { Metadata } from "next";
import Link from "next/link";
import { ago, utc } from "@/components/admin/format";
import { OverviewChart } from "@/components/admin/overview-chart";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, Cell, Row } from "@/components/admin/table";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Card, PageHeader, Section } from "@/components/ui/page";
import { adminOverview, DEMO_STALE_MS, IMPORT_STALE_MS } from "@/lib/domain/admin-overview";
import { portalDb } from "@/lib/server/portal-db";
import { SyncFreshness } from "@/components/admin/sync-freshness";
import { marketSyncStatus } from "@/lib/domain/market-sync-status";

export const metadata: Metadata = { title: "Admin overview" };
export const dynamic = "force-dynamic";

const STATUSES = [
  ["401", "s401"],
  ["403", "s403"],
  ["429", "s429"],
  ["5xx", "s5xx"],
] as const;
const short = (path: string) => path.replace(/^\/api\/v1/, "");

export default async function AdminOverviewPage() {
  await requireAdmin("/admin");
  const now = new Date();
  const o = await adminOverview(await portalDb(), now);
  const sync = await marketSyncStatus(await portalDb(), now);
  const percent = (share: number) => `${share.toFixed(1)}%`;
  const family = (f: "A" | "B") => o.routes.filter((r) => r.family === f);
  const topMax = Math.max(1, ...o.topAccounts.map((a) => a.calls));
  return (
    <div className="space-y-8">
      <PageHeader
        title="Admin overview"
        description="The last 30 days (UTC) of every metered call, the freshness of every data source, and what waits for an admin."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Card>
          <p className="text-sm text-muted">Pending access requests</p>
          <p className="text-2xl font-semibold tabular-nums">{o.pendingAccessRequests}</p>
          <Link href="/admin/access-requests" className="text-sm">
            Review access requests
          </Link>
        </Card>
        <Card>
          <p className="text-sm text-muted">Endpoints pending licensing (endpoint × environment)</p>
          <p className="text-2xl font-semibold tabular-nums">{o.pendingEndpoints}</p>
          <Link href="/admin/licensing" className="text-sm">
            Open the licensing review
          </Link>
        </Card>
      </div>

      <Section id="calls-h" title="Calls per route per day">
        <div className="grid gap-4">
          {(["A", "B"] as const).map((f) => {
            const routes = family(f).filter((r) => r.total > 0); // the table below lists every route
            const total = routes.reduce((n, r) => n + r.total, 0);
            return (
              <OverviewChart
                key={f}
                id={`family-${f}`}
                title={`Family ${f}: calls per route per day`}
                days={o.days}
                kind="stacked"
                series={routes.map((r) => ({ name: `${r.method} ${short(r.path)}`, values: r.perDay }))}
                summary={`${total.toLocaleString("en-US")} calls to family ${f} in 30 days.`}
                calls={total}
                empty={`No calls to family ${f} in the last 30 days.`}
              />
            );
          })}
        </div>
        <AdminTable
          caption="Calls per route, 30 days"
          columns={[
            { label: "Route" },
            { label: "Family", width: "w-24" },
            { label: "Calls (30 days)", width: "w-36" },
            { label: "Today", width: "w-28" },
          ]}
        >
          {o.routes.map((r) => (
            <Row key={r.endpointId}>
              <Cell label="Route">
                <code className="text-xs">
                  {r.method} {r.path}
                </code>
              </Cell>
              <Cell label="Family">{r.family}</Cell>
              <Cell label="Calls (30 days)" className="tabular-nums">
                {r.total.toLocaleString("en-US")}
              </Cell>
              <Cell label="Today" className="tabular-nums">
                {(r.perDay.at(-1) ?? 0).toLocaleString("en-US")}
              </Cell>
            </Row>
          ))}
        </AdminTable>
      </Section>

      <Section id="rates-h" title="Error and limit rates">
        <OverviewChart
          id="rates"
          title="Share of calls answered 401, 403, 429 and 5xx, per day"
          days={o.days}
          kind="percent"
          series={STATUSES.map(([name, k]) => ({
            name,
            values: o.rates.map((r) => r.share[k]),
          }))}
          summary={`Of ${o.totals.calls.toLocaleString("en-US")} metered calls in 30 days: ${STATUSES.map(([name, k]) => `${name} ${percent(o.totals.share[k])}`).join(", ")}.`}
          calls={o.totals.calls}
          empty="No metered calls in the last 30 days."
        />
      </Section>

      <Section id="top-h" title="Top accounts by calls">
        {o.topAccounts.length === 0 ? (
          <EmptyState title="No calls in the last 30 days." />
        ) : (
          <AdminTable
            caption="Top accounts by calls, 30 days"
            columns={[
              { label: "Account", width: "w-1/4" },
              { label: "Owner", width: "w-1/4" },
              { label: "Calls (30 days)" },
            ]}
          >
            {o.topAccounts.map((a) => (
              <Row key={a.accountId}>
                <Cell label="Account">
                  <Link href={`/admin/accounts/${a.accountId}`}>{a.name}</Link>
                </Cell>
                <Cell label="Owner">{a.owner ?? "—"}</Cell>
                <Cell label="Calls (30 days)">
                  <span className="flex items-center gap-3">
                    <span className="w-16 shrink-0 text-right tabular-nums">{a.calls.toLocaleString("en-US")}</span>
                    <span aria-hidden="true" className="h-3 min-w-0 flex-1">
                      <span
                        className="block h-3 rounded-sm bg-accent"
                        style={{ width: `${Math.max(1, (100 * a.calls) / topMax)}%` }}
                      />
                    </span>
                  </span>
                </Cell>
              </Row>
            ))}
          </AdminTable>
        )}
      </Section>

      <Section id="fresh-h" title="Data freshness">
        <p className="max-w-3xl text-sm text-muted">
          The newest import of each kind per store, and the demo simulator's newest tick. An import older than{" "}
          {IMPORT_STALE_MS / 86_400_000} days is stale; so is a demo market more than {DEMO_STALE_MS / 60_000} minutes
          behind the demo clock (it ticks in sessions, 14:30–21:00 UTC on weekdays).
        </p>
        <AdminTable
          caption="Newest data per source"
          columns={[
            { label: "Source" },
            { label: "Store", width: "w-24" },
            { label: "Newest", width: "w-48" },
            { label: "Age", width: "w-32" },
            { label: "Status", width: "w-28" },
          ]}
        >
          {o.freshness.map((f) => (
            <Row key={`${f.source}-${f.env}`} tone={f.stale ? "bad" : undefined}>
              <Cell label="Source">
                <code className="text-xs">{f.source}</code>
              </Cell>
              <Cell label="Store">{f.env}</Cell>
              <Cell label="Newest" className="tabular-nums">
                {utc(f.newestAt)}
              </Cell>
              <Cell label="Age">{ago(f.newestAt, now)}</Cell>
              <Cell label="Status">{f.stale ? <Badge tone="bad">Stale</Badge> : <Badge tone="ok">Fresh</Badge>}</Cell>
            </Row>
          ))}
        </AdminTable>
        <SyncFreshness status={sync} now={now} />
      </Section>
    </div>
  );
}
