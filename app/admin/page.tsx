import type { Metadata } from "next";
import Link from "next/link";
import { OverviewChart } from "@/components/admin/overview-chart";
import { requireAdmin } from "@/components/admin/require-admin";
import { freshnessColumns, ROUTE_COLUMNS, topAccountColumns } from "@/components/admin/overview-columns";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Card, PageHeader, Section } from "@/components/ui/page";
import { adminOverview, DEMO_STALE_MS, IMPORT_STALE_MS, type Overview } from "@/lib/domain/admin-overview";
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

/** What waits for an admin: pending access requests and endpoints pending licensing, each with its page. */
function PendingCards({ overview: o }: { overview: Overview }) {
  return (
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
  );
}

/** Each family's calls per route per day; a route without calls is left out of its chart (the table lists all). */
function FamilyCharts({ overview: o }: { overview: Overview }) {
  return (
    <div className="grid gap-4">
      {(["A", "B"] as const).map((f) => {
        const routes = o.routes.filter((r) => r.family === f && r.total > 0);
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
  );
}

export default async function AdminOverviewPage() {
  await requireAdmin("/admin");
  const now = new Date();
  const o = await adminOverview(await portalDb(), now);
  const sync = await marketSyncStatus(await portalDb(), now);
  const percent = (share: number) => `${share.toFixed(1)}%`;
  const topMax = Math.max(1, ...o.topAccounts.map((a) => a.calls));
  return (
    <div className="space-y-8">
      <PageHeader
        title="Admin overview"
        description="The last 30 days (UTC) of every metered call, the freshness of every data source, and what waits for an admin."
      />
      <PendingCards overview={o} />

      <Section id="calls-h" title="Calls per route per day">
        <FamilyCharts overview={o} />
        <DataTable
          caption="Calls per route, 30 days"
          columns={ROUTE_COLUMNS}
          rows={o.routes}
          rowKey={(r) => r.endpointId}
          wrap
        />
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
        <DataTable
          caption="Top accounts by calls, 30 days"
          columns={topAccountColumns(topMax)}
          rows={o.topAccounts}
          rowKey={(a) => a.accountId}
          empty={<EmptyState title="No calls in the last 30 days." />}
          wrap
        />
      </Section>

      <Section id="fresh-h" title="Data freshness">
        <p className="max-w-3xl text-sm text-muted">
          The newest import of each kind per store, and the demo simulator's newest tick. An import older than{" "}
          {IMPORT_STALE_MS / 86_400_000} days is stale; so is a demo market more than {DEMO_STALE_MS / 60_000} minutes
          behind the demo clock (it ticks in sessions, 14:30–21:00 UTC on weekdays).
        </p>
        <DataTable
          caption="Newest data per source"
          columns={freshnessColumns(now)}
          rows={o.freshness}
          rowKey={(f) => `${f.source}-${f.env}`}
          rowTone={(f) => (f.stale ? "bad" : undefined)}
          wrap
        />
        <SyncFreshness status={sync} now={now} />
      </Section>
    </div>
  );
}
