import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-table";
import type { Overview } from "@/lib/domain/admin-overview";
import { ago, utc } from "./format";

type Route = Overview["routes"][number];
type TopAccount = Overview["topAccounts"][number];
type Freshness = Overview["freshness"][number];

const count = (n: number) => n.toLocaleString("en-US");

/** The overview's calls per route: route, family, calls in 30 days and today. */
export const ROUTE_COLUMNS: Column<Route>[] = [
  {
    id: "route",
    header: "Route",
    cell: (r) => (
      <code className="text-xs">
        {r.method} {r.path}
      </code>
    ),
  },
  { id: "family", header: "Family", width: "w-24", cell: (r) => r.family },
  { id: "calls", header: "Calls (30 days)", width: "w-36", className: "tabular-nums", cell: (r) => count(r.total) },
  { id: "today", header: "Today", width: "w-28", className: "tabular-nums", cell: (r) => count(r.perDay.at(-1) ?? 0) },
];

/** The top accounts, each with a bar of its calls against the busiest account's (`topMax`). */
export const topAccountColumns = (topMax: number): Column<TopAccount>[] => [
  {
    id: "account",
    header: "Account",
    width: "w-1/4",
    cell: (a) => <Link href={`/admin/accounts/${a.accountId}`}>{a.name}</Link>,
  },
  { id: "owner", header: "Owner", width: "w-1/4", cell: (a) => a.owner ?? "—" },
  {
    id: "calls",
    header: "Calls (30 days)",
    cell: (a) => (
      <span className="flex items-center gap-3">
        <span className="w-16 shrink-0 text-right tabular-nums">{count(a.calls)}</span>
        <span aria-hidden="true" className="h-3 min-w-0 flex-1">
          <span
            className="block h-3 rounded-sm bg-accent"
            style={{ width: `${Math.max(1, (100 * a.calls) / topMax)}%` }}
          />
        </span>
      </span>
    ),
  },
];

/** The newest data per source and store, its age at `now`, and whether it is stale. */
export const freshnessColumns = (now: Date): Column<Freshness>[] => [
  { id: "source", header: "Source", cell: (f) => <code className="text-xs">{f.source}</code> },
  { id: "store", header: "Store", width: "w-24", cell: (f) => f.env },
  { id: "newest", header: "Newest", width: "w-48", className: "tabular-nums", cell: (f) => utc(f.newestAt) },
  { id: "age", header: "Age", width: "w-32", cell: (f) => ago(f.newestAt, now) },
  {
    id: "status",
    header: "Status",
    width: "w-28",
    cell: (f) => (f.stale ? <Badge tone="bad">Stale</Badge> : <Badge tone="ok">Fresh</Badge>),
  },
];
