import { ScrollRegion } from "@/components/scroll-region";

/** A chart's numbers as a table, folded under "Show the numbers as a table" (the charts' accessible alternative). */
export function SeriesTable({
  title,
  timeLabel,
  columns,
  rows,
}: {
  title: string;
  timeLabel: string;
  columns: string[];
  rows: { key: string; label: string; cells: (string | number)[] }[];
}) {
  return (
    <details>
      <summary className="cursor-pointer text-xs font-medium text-link">Show the numbers as a table</summary>
      <ScrollRegion label={`${title}: table`} className="mt-2 max-h-80 overflow-auto">
        <table className="w-full table-fixed border-collapse text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead className="sticky top-0 bg-subtle">
            <tr>
              <th scope="col" className="w-28 px-2 py-1">
                {timeLabel}
              </th>
              {columns.map((c) => (
                <th key={c} scope="col" className="px-2 py-1 text-right text-xs [overflow-wrap:anywhere]">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className="border-t border-line">
                <th scope="row" className="px-2 py-1 font-normal whitespace-nowrap">
                  {r.label}
                </th>
                {r.cells.map((c, i) => (
                  <td key={columns[i]} className="px-2 py-1 text-right tabular-nums">
                    {c}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </details>
  );
}
