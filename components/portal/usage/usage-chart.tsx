"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SeriesRow } from "@/lib/portal/usage-series";
import { useSeriesColour } from "./series-colours";
import { SeriesTable } from "./series-table";

export interface UsageChartProps {
  id: string;
  title: string;
  rows: SeriesRow[];
  groups: string[];
  totals: Record<string, number>;
  total: number;
  bucketLabel: (bucket: string) => string;
  unit: string;
}

/** A stacked bar chart with its text summary and a table of the same numbers (the accessible alternative). */
export function UsageChart({ id, title, rows, groups, totals, total, bucketLabel, unit }: UsageChartProps) {
  const colour = useSeriesColour();
  const summary =
    total === 0
      ? `No calls in the ${unit}.`
      : `${total.toLocaleString("en-US")} calls in the ${unit}: ${groups.map((g) => `${g} ${totals[g].toLocaleString("en-US")}`).join(", ")}.`;
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 space-y-2 rounded-lg border border-line bg-surface p-4">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        {title}
      </h3>
      <p id={`${id}-summary`} className="text-xs text-muted" data-testid={`${id}-summary`}>
        {summary}
      </p>
      {total === 0 ? (
        <div className="grid h-48 place-items-center rounded-md border border-dashed border-line text-center text-sm text-muted">
          <p className="max-w-xs">
            Calls appear here within seconds. <a href="/dashboard/playground">Send one from the playground</a>.
          </p>
        </div>
      ) : (
        <div className="chart h-56 w-full" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="bucket" tickFormatter={bucketLabel} tick={{ fontSize: 11 }} minTickGap={16} />
              <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={36} />
              <Tooltip labelFormatter={(b) => bucketLabel(String(b))} cursor={{ fillOpacity: 0.08 }} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {groups.map((g, i) => (
                <Bar key={g} dataKey={g} stackId="calls" fill={colour(g, i)} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
      <SeriesTable
        title={title}
        timeLabel="Time (UTC)"
        columns={groups}
        rows={rows
          .filter((r) => groups.some((g) => (r[g] as number) > 0))
          .map((r) => ({ key: r.bucket, label: bucketLabel(r.bucket), cells: groups.map((g) => r[g] as number) }))}
      />
    </section>
  );
}
