"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { UsageSummary } from "@/lib/shared/usage-types";
import { portalFetch } from "@/components/portal/portal-fetch";
import { GROUP_BY, seriesRows, type GroupBy } from "@/lib/portal/usage-series";
import { QueryState } from "../query-state";
import { QuotaGauges } from "./quota-gauges";
import { RequestLog } from "./request-log";
import { UsageChart } from "./usage-chart";

const dayLabel = (d: string) => d.slice(5);
const minuteLabel = (iso: string) => iso.slice(11, 16);

export function UsageDashboard() {
  const [groupBy, setGroupBy] = useState<GroupBy>("family");
  const summary = useQuery({
    queryKey: ["portal", "usage"],
    queryFn: () => portalFetch<UsageSummary>("/api/portal/usage"),
    refetchInterval: 15_000,
    staleTime: 5_000,
  });
  return (
    <div className="space-y-8">
      <QueryState query={summary} what="usage">
        {(s) => {
          const daily = seriesRows(s.daily.days, s.daily.cells, groupBy);
          const minutes = seriesRows(s.minutes.minutes, s.minutes.cells, groupBy);
          return (
            <>
              <QuotaGauges summary={s} />
              <section aria-labelledby="calls-heading" className="space-y-4">
                <div className="flex flex-wrap items-end justify-between gap-3">
                  <h2 id="calls-heading" className="text-2xl font-semibold">
                    Calls
                  </h2>
                  <div className="flex items-center gap-2">
                    <label htmlFor="group-by" className="text-sm font-medium">
                      Group by
                    </label>
                    <select
                      id="group-by"
                      value={groupBy}
                      onChange={(e) => setGroupBy(e.target.value as GroupBy)}
                      className="rounded border border-slate-400 px-2 py-1"
                    >
                      {GROUP_BY.map((g) => (
                        <option key={g} value={g}>
                          {g === "status" ? "status class" : g}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      onClick={() => summary.refetch()}
                      className="rounded border border-slate-400 px-3 py-1 text-sm"
                    >
                      Refresh
                    </button>
                  </div>
                </div>
                <UsageChart
                  id="minute-chart"
                  title="Calls per minute, last hour"
                  unit="last hour"
                  bucketLabel={minuteLabel}
                  {...minutes}
                />
                <UsageChart
                  id="daily-chart"
                  title="Calls per day, last 30 days"
                  unit="last 30 days"
                  bucketLabel={dayLabel}
                  {...daily}
                />
                <p className="text-sm text-slate-700">
                  Daily counts come from the daily aggregate, where 429s are counted with the other 4xx; the minute view
                  shows 429 on its own.
                </p>
              </section>
              <RequestLog keys={s.keys} endpoints={s.endpoints} />
            </>
          );
        }}
      </QueryState>
    </div>
  );
}
