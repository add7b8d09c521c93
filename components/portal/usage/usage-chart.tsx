"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SeriesRow } from "@/lib/portal/usage-series";
import { ScrollRegion } from "@/components/scroll-region";

/** Colour-blind-safe palette (Okabe–Ito), dark enough for text contrast on white. */
const COLOURS = [
  "#0072B2",
  "#D55E00",
  "#009E73",
  "#CC79A7",
  "#8a6d00",
  "#56B4E9",
  "#444444",
  "#b8004f",
  "#5d3a9b",
  "#1b7837",
  "#a6611a",
  "#2c7fb8",
];

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
  const summary =
    total === 0
      ? `No calls in the ${unit}.`
      : `${total.toLocaleString("en-US")} calls in the ${unit}: ${groups.map((g) => `${g} ${totals[g].toLocaleString("en-US")}`).join(", ")}.`;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-slate-200 p-4">
      <h3 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h3>
      <p id={`${id}-summary`} className="text-sm text-slate-700" data-testid={`${id}-summary`}>
        {summary}
      </p>
      <div className="h-64 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis
              dataKey="bucket"
              tickFormatter={bucketLabel}
              tick={{ fontSize: 11, fill: "#334155" }}
              minTickGap={16}
            />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "#334155" }} width={40} />
            <Tooltip labelFormatter={(b) => bucketLabel(String(b))} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {groups.map((g, i) => (
              <Bar key={g} dataKey={g} stackId="calls" fill={COLOURS[i % COLOURS.length]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details>
        <summary className="cursor-pointer text-sm font-medium text-blue-800">Show the numbers as a table</summary>
        <ScrollRegion label={`${title}: table`} className="mt-2 max-h-80 overflow-auto">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">{title}</caption>
            <thead className="sticky top-0 bg-slate-100">
              <tr>
                <th scope="col" className="px-2 py-1">
                  Time (UTC)
                </th>
                {groups.map((g) => (
                  <th key={g} scope="col" className="px-2 py-1 text-right">
                    {g}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows
                .filter((r) => groups.some((g) => (r[g] as number) > 0))
                .map((r) => (
                  <tr key={r.bucket} className="border-t border-slate-200">
                    <th scope="row" className="whitespace-nowrap px-2 py-1 font-normal">
                      {bucketLabel(r.bucket)}
                    </th>
                    {groups.map((g) => (
                      <td key={g} className="px-2 py-1 text-right tabular-nums">
                        {r[g] as number}
                      </td>
                    ))}
                  </tr>
                ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </section>
  );
}
