/** The admin accounts page before any search: the newest accounts and the most active ones (calls in 30 days). */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { AccountListItem } from "./accounts";
import type { PlanId } from "./plans-catalogue";
import type { AccountStatus } from "../shared/account-status";

export interface AccountHighlight extends AccountListItem {
  /** Metered calls of the account's keys over the last 30 UTC days, today included. */
  calls30d: number;
}

type Row = {
  id: string;
  name: string;
  plan_id: string;
  status: AccountStatus;
  owner: string | null;
  members: number;
  keys: number;
  created_at: string;
  calls: number;
};

const toItem = (r: Row): AccountHighlight => ({
  accountId: r.id,
  name: r.name,
  plan: r.plan_id as PlanId,
  status: r.status,
  owner: r.owner,
  members: r.members,
  keys: r.keys,
  createdAt: new Date(r.created_at).toISOString(),
  calls30d: r.calls,
});

export async function accountHighlights(db: Db, now = new Date(), limit = 10) {
  const since = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  const rows = await db.execute<Row & { recent_rank: number; active_rank: number }>(sql`
    with calls as (
      select account_id, sum(calls)::int as calls from usage_daily where day >= ${since}::date group by account_id
    ), ranked as (
      select a.id, a.name, a.plan_id, a.status, a.created_at::text, coalesce(c.calls, 0) as calls,
        (select u.email from memberships m join users u on u.id = m.user_id where m.account_id = a.id and m.role = 'owner') as owner,
        (select count(*)::int from memberships m where m.account_id = a.id) as members,
        (select count(*)::int from api_keys k where k.account_id = a.id) as keys,
        (row_number() over (order by a.created_at desc, a.id))::int as recent_rank,
        case when c.calls > 0 then (row_number() over (order by coalesce(c.calls, 0) desc, a.id))::int end as active_rank
      from accounts a left join calls c on c.account_id = a.id
    )
    select * from ranked where recent_rank <= ${limit} or active_rank <= ${limit}`);
  const all = [...rows];
  return {
    recent: all
      .filter((r) => r.recent_rank <= limit)
      .sort((a, b) => a.recent_rank - b.recent_rank)
      .map(toItem),
    active: all
      .filter((r) => r.active_rank !== null && r.active_rank <= limit)
      .sort((a, b) => a.active_rank - b.active_rank)
      .map(toItem),
  };
}
