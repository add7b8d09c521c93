import type { Metadata } from "next";
import Link from "next/link";
import { BarChart } from "@/components/admin/bar-chart";
import { utc } from "@/components/admin/format";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, cell, Empty } from "@/components/admin/table";
import { adminOverview } from "@/lib/domain/admin-overview";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Admin overview" };
export const dynamic = "force-dynamic";

const pct = (n: number, d: number) => (d === 0 ? "0%" : `${((100 * n) / d).toFixed(1)}%`);

export default async function AdminOverviewPage() {
  await requireAdmin("/admin");
  const o = await adminOverview(await portalDb());
  const byFamily = (f: "A" | "B") =>
    o.days.map((_, i) => o.routes.filter((r) => r.family === f).reduce((n, r) => n + r.perDay[i], 0));
  const sum = (k: "calls" | "s401" | "s403" | "s429" | "s5xx") => o.rates.reduce((n, r) => n + r[k], 0);
  const calls = sum("calls");
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-bold">Admin overview</h1>
      <ul className="flex flex-wrap gap-4">
        <li>
          <Link href="/admin/access-requests" className="font-medium">
            Pending access requests: {o.pendingAccessRequests}
          </Link>
        </li>
        <li>
          <Link href="/admin/licensing" className="font-medium">
            Pending endpoints: {o.pendingEndpoints}
          </Link>
        </li>
      </ul>
      <section className="space-y-3">
        <h2 className="text-xl font-semibold">Calls per day (30 days)</h2>
        <BarChart
          title="Calls per day by family"
          labels={o.days}
          series={[
            { name: "Family A", values: byFamily("A"), colour: "#1d4ed8" },
            { name: "Family B", values: byFamily("B"), colour: "#b45309" },
          ]}
        />
        <AdminTable caption="Calls per route, 30 days" head={["Family", "Route", "Calls (30 days)", "Today"]}>
          {o.routes.map((r) => (
            <tr key={r.endpointId} className="border-b border-slate-200">
              <td className={cell}>{r.family}</td>
              <td className={cell}>
                <code>
                  {r.method} {r.path}
                </code>
              </td>
              <td className={cell}>{r.total}</td>
              <td className={cell}>{r.perDay.at(-1)}</td>
            </tr>
          ))}
        </AdminTable>
      </section>
      <section className="space-y-3">
        <h2 className="text-xl font-semibold">Error and limit rates (30 days)</h2>
        <BarChart
          title="Refused calls per day"
          labels={o.days}
          series={[
            { name: "401", values: o.rates.map((r) => r.s401), colour: "#7c3aed" },
            { name: "403", values: o.rates.map((r) => r.s403), colour: "#be123c" },
            { name: "429", values: o.rates.map((r) => r.s429), colour: "#b45309" },
            { name: "5xx", values: o.rates.map((r) => r.s5xx), colour: "#0f172a" },
          ]}
        />
        <p className="text-sm text-slate-700">
          Of {calls} metered calls: 401 {pct(sum("s401"), calls)}, 403 {pct(sum("s403"), calls)}, 429{" "}
          {pct(sum("s429"), calls)}, 5xx {pct(sum("s5xx"), calls)}.
        </p>
      </section>
      <section className="space-y-3">
        <h2 className="text-xl font-semibold">Top accounts by calls</h2>
        {o.topAccounts.length === 0 ? (
          <Empty>No calls in the last 30 days.</Empty>
        ) : (
          <AdminTable caption="Top accounts by calls" head={["Account", "Owner", "Calls (30 days)"]}>
            {o.topAccounts.map((a) => (
              <tr key={a.accountId} className="border-b border-slate-200">
                <td className={cell}>
                  <Link href={`/admin/accounts/${a.accountId}`}>{a.name}</Link>
                </td>
                <td className={cell}>{a.owner ?? "—"}</td>
                <td className={cell}>{a.calls}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      <section className="space-y-3">
        <h2 className="text-xl font-semibold">Data freshness</h2>
        <AdminTable caption="Newest data per source" head={["Source", "Store", "Newest", "Status"]}>
          {o.freshness.map((f) => (
            <tr key={`${f.source}-${f.env}`} className="border-b border-slate-200">
              <td className={cell}>{f.source}</td>
              <td className={cell}>{f.env}</td>
              <td className={cell}>{utc(f.newestAt)}</td>
              <td className={cell}>
                {f.stale ? (
                  <strong className="text-red-800">Stale</strong>
                ) : (
                  <span className="text-green-800">Fresh</span>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      </section>
    </div>
  );
}
