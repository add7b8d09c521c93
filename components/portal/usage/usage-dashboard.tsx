"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { UsageSummary } from "@/lib/shared/usage-types";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Button } from "@/components/ui/button";
import { GROUP_BY, seriesRows, type GroupBy } from "@/lib/portal/usage-series";
import { streamCallsOn } from "@/lib/portal/stream-list";
import { QueryState } from "../query-state";
import { QuotaTable } from "./quota-gauges";
import { StreamUsagePanel } from "./stream-usage";
import { UsageChart } from "./usage-chart";

const dayLabel = (d: string) => d.slice(5);
const minuteLabel = (iso: string) => iso.slice(11, 16);
const fmt = (n: number) => n.toLocaleString("en-US");

/** The headline numbers, from the same cells the charts draw. */
function headline(s: UsageSummary) {
  const today = s.now.slice(0, 10);
  let todayCalls = 0;
  let monthCalls = 0;
  let errors = 0;
  for (const c of s.daily.cells) {
    if (c.bucket === today) todayCalls += c.calls;
    if (c.bucket.slice(0, 7) === today.slice(0, 7)) {
      monthCalls += c.calls;
      if (c.statusClass !== "2xx") errors += c.calls;
    }
  }
  // The daily series covers 30 days: on the 31st the month's first day is outside it, so the card says so.
  const month = today.endsWith("-31") ? "last 30 days" : "this month";
  if (month === "last 30 days") monthCalls = s.daily.cells.reduce((n, c) => n + c.calls, 0);
  const rate = monthCalls === 0 ? "–" : `${Math.round((errors / monthCalls) * 1000) / 10} %`;
  const stream = streamCallsOn(s.daily.cells, today);
  return [
    {
      label: "Calls today (UTC)",
      value: fmt(todayCalls),
      note: stream === null ? undefined : `${fmt(stream)} from the live stream (each event is a call)`,
    },
    { label: `Calls ${month}`, value: fmt(monthCalls) },
    { label: `Error rate ${month}`, value: rate },
    { label: "429s in the last hour", value: fmt(s.rateLimited.lastHour), note: `${fmt(s.rateLimited.today)} today` },
  ];
}

/** The headline numbers as cards. */
function Headline({ summary }: { summary: UsageSummary }) {
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {headline(summary).map((h) => (
        <div key={h.label} className="rounded-lg border border-line bg-surface p-4">
          <dt className="text-xs font-medium text-muted">{h.label}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums">
            {h.value}
            {h.note ? <span className="ml-2 text-xs font-normal text-muted">{h.note}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The request log has its own page (/dashboard/logs). */
function LogsLink() {
  return (
    <section aria-labelledby="log-heading" className="space-y-2">
      <h2 id="log-heading" className="text-lg font-semibold">
        Request log
      </h2>
      <p className="text-sm text-muted">
        Every call, with filters, request id search, a live tail and the body of each error, is on the{" "}
        <a href="/dashboard/logs">Logs</a> page.
      </p>
    </section>
  );
}

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
              <Headline summary={s} />
              <section aria-labelledby="calls-heading" className="space-y-3">
                <div className="flex flex-wrap items-end justify-between gap-3">
                  <h2 id="calls-heading" className="text-lg font-semibold">
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
                      className="h-8 rounded-md border border-line-strong bg-surface px-2 text-sm"
                    >
                      {GROUP_BY.map((g) => (
                        <option key={g} value={g}>
                          {g === "status" ? "status class" : g}
                        </option>
                      ))}
                    </select>
                    <Button size="sm" onClick={() => summary.refetch()}>
                      Refresh
                    </Button>
                  </div>
                </div>
                <div className="grid gap-4 xl:grid-cols-2">
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
                </div>
                <p className="text-xs text-muted">
                  Daily counts come from the daily aggregate, where 429s are counted with the other 4xx; the minute view
                  shows 429 on its own.
                </p>
              </section>
              <QuotaTable summary={s} />
              <StreamUsagePanel />
              <LogsLink />
            </>
          );
        }}
      </QueryState>
    </div>
  );
}
