/**
 * Every count on the admin overview, read by one statement over one window so that the charts, the route table, the
 * error card and the top accounts agree: a metered call is one unit of a usage_events row (a row per call, or per
 * metered round of a stream with `units`) on a catalogued endpoint, created in the window of the last OVERVIEW_DAYS
 * UTC days, today included (docs/admin.md).
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

export const OVERVIEW_DAYS = 30;
const DAY = 86_400_000;
const TOP_ACCOUNTS = 10;

/** Calls answered 401, 403, 429 and 5xx: the statuses the error card counts. */
export const REFUSED_STATUSES = ["s401", "s403", "s429", "s5xx"] as const;
export type RefusedStatus = (typeof REFUSED_STATUSES)[number];
export type StatusCounts = { calls: number } & Record<RefusedStatus, number>;
/** The share of calls answered with each refused status, in percent (0 when there were no calls). */
export type StatusShares = Record<RefusedStatus, number>;

export interface OverviewCalls {
  /** The window's UTC days, oldest first; the last is today. */
  days: string[];
  /** Every catalogued route with its calls per day (aligned with `days`) and their sum. */
  routes: { endpointId: string; method: string; path: string; family: "A" | "B"; total: number; perDay: number[] }[];
  /** Up to 10 accounts with the most calls in the window. */
  topAccounts: { accountId: string; name: string; owner: string | null; calls: number }[];
  /** Per day: calls, how many answered 401, 403, 429 and 5xx, and those as shares of the day's calls. */
  rates: (StatusCounts & { day: string; share: StatusShares })[];
  /** The window's calls and refused answers (the sums of `rates`, of every route's `total`), with their shares. */
  totals: StatusCounts & { share: StatusShares };
}

/** A count as a percentage of `calls`: the one definition every overview percentage uses (0 when calls is 0). */
export const shareOf = (n: number, calls: number) => (calls === 0 ? 0 : (100 * n) / calls);

const sharesOf = (c: StatusCounts): StatusShares =>
  Object.fromEntries(REFUSED_STATUSES.map((k) => [k, shareOf(c[k], c.calls)])) as StatusShares;

/** The window's UTC days ending with `now`'s day, and its bounds [from, to). */
export function overviewWindow(now: Date): { days: string[]; from: string; to: string } {
  const today = Math.floor(now.getTime() / DAY) * DAY;
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, i) =>
    new Date(today - (OVERVIEW_DAYS - 1 - i) * DAY).toISOString().slice(0, 10),
  );
  return { days, from: `${days[0]}T00:00:00.000Z`, to: new Date(today + DAY).toISOString() };
}

type Row = {
  kind: "route" | "account";
  id: string;
  method: string | null;
  path: string | null;
  family: "A" | "B" | null;
  day: string | null;
  name: string | null;
  owner: string | null;
} & StatusCounts;

function readRows(db: Db, from: string, to: string) {
  return db.execute<Row>(sql`
    with ev as (
      select (u.created_at at time zone 'UTC')::date::text as day, u.endpoint_id, u.account_id, u.units, u.status
      from usage_events u join endpoints e on e.id = u.endpoint_id
      where u.created_at >= ${from}::timestamptz and u.created_at < ${to}::timestamptz
    ), per as (
      select day, endpoint_id, sum(units)::int as calls,
        coalesce(sum(units) filter (where status = 401), 0)::int as s401,
        coalesce(sum(units) filter (where status = 403), 0)::int as s403,
        coalesce(sum(units) filter (where status = 429), 0)::int as s429,
        coalesce(sum(units) filter (where status >= 500), 0)::int as s5xx
      from ev group by day, endpoint_id
    ), top as (
      select account_id, sum(units)::int as calls from ev group by account_id order by calls desc, account_id limit ${TOP_ACCOUNTS}
    )
    select 'route' as kind, e.id, e.method, e.path, e.family::text as family, p.day, null::text as name, null::text as owner,
      coalesce(p.calls, 0)::int as calls, coalesce(p.s401, 0)::int as s401, coalesce(p.s403, 0)::int as s403,
      coalesce(p.s429, 0)::int as s429, coalesce(p.s5xx, 0)::int as s5xx
    from endpoints e left join per p on p.endpoint_id = e.id
    union all
    select 'account', t.account_id::text, null, null, null, null, a.name,
      (select u.email from memberships m join users u on u.id = m.user_id where m.account_id = a.id and m.role = 'owner' order by m.created_at limit 1),
      t.calls, 0, 0, 0, 0
    from top t join accounts a on a.id = t.account_id`);
}

const zero = (): StatusCounts => ({ calls: 0, s401: 0, s403: 0, s429: 0, s5xx: 0 });
function add(to: StatusCounts, c: StatusCounts) {
  to.calls += c.calls;
  for (const k of REFUSED_STATUSES) to[k] += c[k];
}

/** The overview's calls: one statement, everything else summed from its rows. */
export async function overviewCalls(db: Db, now: Date): Promise<OverviewCalls> {
  const { days, from, to } = overviewWindow(now);
  const rows = [...(await readRows(db, from, to))];
  const index = new Map(days.map((d, i) => [d, i]));
  const perDay = days.map(zero);
  const totals = zero();
  const routes = new Map<string, OverviewCalls["routes"][number]>();
  const topAccounts: OverviewCalls["topAccounts"] = [];
  for (const r of rows) {
    if (r.kind === "account") {
      topAccounts.push({ accountId: r.id, name: r.name ?? "", owner: r.owner, calls: r.calls });
      continue;
    }
    const route = routes.get(r.id) ?? {
      endpointId: r.id,
      method: r.method ?? "",
      path: r.path ?? "",
      family: r.family ?? "A",
      total: 0,
      perDay: days.map(() => 0),
    };
    routes.set(r.id, route);
    const i = r.day ? index.get(r.day) : undefined;
    if (i === undefined) continue; // an endpoint without calls in the window
    route.perDay[i] += r.calls;
    route.total += r.calls;
    add(perDay[i], r);
    add(totals, r);
  }
  return {
    days,
    routes: [...routes.values()].sort(
      (a, b) => a.family.localeCompare(b.family) || b.total - a.total || a.endpointId.localeCompare(b.endpointId),
    ),
    topAccounts: topAccounts.sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name)),
    rates: days.map((day, i) => ({ day, ...perDay[i], share: sharesOf(perDay[i]) })),
    totals: { ...totals, share: sharesOf(totals) },
  };
}
