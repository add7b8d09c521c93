"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useSeriesColour } from "@/components/portal/usage/series-colours";
import { SeriesTable } from "@/components/portal/usage/series-table";

export interface ChartSeries {
  name: string;
  values: number[];
}

/**
 * One admin overview chart over the 30 days (stacked bars of counts, or lines of percentages), its one-line text
 * summary, and the same numbers as a table (the accessible alternative). Colours come from the theme's series tokens.
 */
export function OverviewChart({
  id,
  title,
  days,
  series,
  kind,
  summary,
  calls,
  empty,
}: {
  id: string;
  title: string;
  days: string[];
  series: ChartSeries[];
  kind: "stacked" | "percent";
  summary: string;
  /** The calls the chart is drawn from: the empty state shows exactly when this is 0. */
  calls: number;
  empty: string;
}) {
  const rows: Row[] = days.map((day, i) => ({
    day,
    ...Object.fromEntries(series.map((s) => [s.name, s.values[i] ?? 0])),
  }));
  const hasData = calls > 0;
  const fmt = (v: number) => (kind === "percent" ? `${v.toFixed(1)}%` : v.toLocaleString("en-US"));
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 space-y-2 rounded-lg border border-line bg-surface p-4">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        {title}
      </h3>
      <p className="text-xs text-muted" data-testid={`${id}-summary`}>
        {summary}
      </p>
      {hasData ? (
        <div className="chart h-56 w-full" aria-hidden="true">
          <OverviewPlot kind={kind} rows={rows} series={series} fmt={fmt} />
        </div>
      ) : (
        <div className="grid h-40 place-items-center rounded-md border border-dashed border-line text-center text-sm text-muted">
          <p className="max-w-xs">{empty}</p>
        </div>
      )}
      <SeriesTable
        title={title}
        timeLabel="Day (UTC)"
        columns={series.map((s) => s.name)}
        rows={rows.map((r) => ({ key: r.day, label: r.day, cells: series.map((s) => fmt(Number(r[s.name]))) }))}
      />
    </section>
  );
}

type Row = { day: string } & Record<string, number | string>;

/** The chart itself: stacked bars of counts, or lines of percentages, one colour per series in the chart's order. */
function OverviewPlot({
  kind,
  rows,
  series,
  fmt,
}: {
  kind: "stacked" | "percent";
  rows: Row[];
  series: ChartSeries[];
  fmt: (v: number) => string;
}) {
  const colour = useSeriesColour();
  const axis = { tick: { fontSize: 11 } };
  const frame = { data: rows, accessibilityLayer: false, margin: { top: 8, right: 8, bottom: 0, left: 0 } };
  const grid = <CartesianGrid strokeDasharray="3 3" vertical={false} />;
  const xAxis = <XAxis dataKey="day" tickFormatter={(d: string) => d.slice(5)} minTickGap={16} {...axis} />;
  const legend = <Legend wrapperStyle={{ fontSize: 12 }} />;
  return (
    <ResponsiveContainer width="100%" height="100%">
      {kind === "stacked" ? (
        <BarChart {...frame}>
          {grid}
          {xAxis}
          <YAxis allowDecimals={false} width={44} {...axis} />
          <Tooltip formatter={(v) => fmt(Number(v))} cursor={{ fillOpacity: 0.08 }} />
          {legend}
          {series.map((s, i) => (
            <Bar key={s.name} dataKey={s.name} stackId="calls" fill={colour(s.name, i)} isAnimationActive={false} />
          ))}
        </BarChart>
      ) : (
        <LineChart {...frame}>
          {grid}
          {xAxis}
          <YAxis width={44} tickFormatter={(v: number) => `${v}%`} {...axis} />
          <Tooltip formatter={(v) => fmt(Number(v))} />
          {legend}
          {series.map((s, i) => (
            <Line
              key={s.name}
              dataKey={s.name}
              stroke={colour(s.name, i)}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      )}
    </ResponsiveContainer>
  );
}
