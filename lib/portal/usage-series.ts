/** Turns the usage summary's cells into chart rows grouped by family, route or status class (pure; the charts and their tables share it). */
import type { UsageCell } from "../shared/usage-types";

export const GROUP_BY = ["family", "route", "status"] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export type SeriesRow = { bucket: string } & Record<string, number | string>;

export function groupName(cell: UsageCell, by: GroupBy): string {
  if (by === "family") return `Family ${cell.family}`;
  if (by === "route") return cell.endpointId;
  return cell.statusClass;
}

/** One row per bucket (every bucket, zeros included), one numeric column per group; groups sorted, totals per group. */
export function seriesRows(
  buckets: string[],
  cells: UsageCell[],
  by: GroupBy,
): { rows: SeriesRow[]; groups: string[]; totals: Record<string, number>; total: number } {
  const groups = [...new Set(cells.map((c) => groupName(c, by)))].sort();
  const index = new Map(buckets.map((b, i) => [b, i]));
  const rows: SeriesRow[] = buckets.map((bucket) => ({ bucket, ...Object.fromEntries(groups.map((g) => [g, 0])) }));
  const totals: Record<string, number> = Object.fromEntries(groups.map((g) => [g, 0]));
  let total = 0;
  for (const c of cells) {
    const i = index.get(c.bucket);
    if (i === undefined) continue;
    const g = groupName(c, by);
    rows[i][g] = (rows[i][g] as number) + c.calls;
    totals[g] += c.calls;
    total += c.calls;
  }
  return { rows, groups, totals, total };
}
