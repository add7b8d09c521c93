"use client";

import { useId, useState } from "react";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { defaultField, fieldLabel, fieldSummary, formatValue, type HistorySeries } from "@/lib/portal/history-series";
import { useSeriesColour } from "@/components/portal/usage/series-colours";
import { SeriesTable } from "@/components/portal/usage/series-table";

/** Short date on the axis: "Nov 3" (the dates are New York session days, shown as written). */
const shortDate = (d: string) => {
  const [y, m, day] = d.split("-").map(Number);
  if (!y || !m || !day) return d;
  return new Date(Date.UTC(y, m - 1, day)).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
};

/** In the chart's place: why there is nothing to draw (no stored day, or no numeric field). */
function NoChart({ id, empty }: { id: string; empty: boolean }) {
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2" data-testid="pg-history-chart">
      <h3 id={`${id}-title`} className="text-sm font-medium">
        Chart
      </h3>
      <div className="grid h-24 place-items-center rounded-md border border-dashed border-line p-3 text-center text-sm text-muted">
        <p>
          {empty
            ? "No stored day in this range: try an earlier “from”, or a symbol with history."
            : "None of the requested fields is a number: ask for price, iv_rank, atm_iv_30d and the like to draw them."}
        </p>
      </div>
    </section>
  );
}

/** A small line chart of one numeric field of a history answer, a field picker, a summary line and the table alternative. */
export function HistoryChart({ series }: { series: HistorySeries }) {
  const id = useId();
  const colour = useSeriesColour();
  const [picked, setPicked] = useState<string | null>(null);
  const field = picked && series.fields.includes(picked) ? picked : defaultField(series.fields);
  const title = `History${series.symbol ? ` of ${series.symbol}` : ""}${field ? `: ${fieldLabel(field)}` : ""}`;

  if (series.rows.length === 0 || !field) return <NoChart id={id} empty={series.rows.length === 0} />;

  const summary = fieldSummary(series.rows, field);
  const line = colour("Family A");
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 space-y-2" data-testid="pg-history-chart">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h3 id={`${id}-title`} className="text-sm font-medium">
          {title}
        </h3>
        {series.fields.length > 1 ? (
          <div className="flex items-center gap-2">
            <label htmlFor={`${id}-field`} className="text-xs text-muted">
              Field
            </label>
            <select
              id={`${id}-field`}
              value={field}
              onChange={(e) => setPicked(e.target.value)}
              className="h-8 max-w-[12rem] rounded-md border border-line-strong bg-surface px-2 font-mono text-xs"
            >
              {series.fields.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      <p className="text-xs text-muted" data-testid="pg-history-summary" aria-live="polite">
        {summary
          ? `${fieldLabel(field)} on ${summary.days} of ${series.rows.length} days: lowest ${formatValue(summary.min)}, highest ${formatValue(summary.max)}, ${formatValue(summary.last)} on ${summary.lastDate}.`
          : `${fieldLabel(field)} has no value in this range.`}
      </p>
      <div className="chart h-44 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={series.rows} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tickFormatter={shortDate} tick={{ fontSize: 11 }} minTickGap={24} />
            <YAxis tick={{ fontSize: 11 }} width={44} domain={["auto", "auto"]} tickFormatter={(v) => formatValue(v)} />
            <Tooltip
              labelFormatter={(d) => String(d)}
              formatter={(v) => [formatValue(typeof v === "number" ? v : null), field]}
            />
            <Line
              type="linear"
              dataKey={field}
              stroke={line}
              strokeWidth={2}
              dot={series.rows.length <= 31 ? { r: 2, fill: line } : false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <SeriesTable
        title={title}
        timeLabel="Date"
        columns={[field]}
        rows={series.rows.map((r) => ({ key: r.date, label: r.date, cells: [formatValue(r[field])] }))}
      />
    </section>
  );
}
