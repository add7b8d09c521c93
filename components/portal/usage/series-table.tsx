import { ScrollRegion } from "@/components/scroll-region";

/** Past this many series the table is drawn long (one row per time and series): wide ones would scroll or squeeze. */
const MAX_WIDE_SERIES = 6;
/** Series names longer than this in all cannot sit side by side at 375 px (they would wrap a letter at a time). */
const MAX_WIDE_HEADER_CHARS = 40;

/** Whether the table is drawn long: many series (the admin overview's routes), or names too long to sit side by side. */
export const drawnLong = (columns: readonly string[]) =>
  columns.length > MAX_WIDE_SERIES || columns.reduce((n, c) => n + c.length, 0) > MAX_WIDE_HEADER_CHARS;

/**
 * A chart's numbers as a table, folded under "Show the numbers as a table" (the charts' accessible alternative). A few
 * short series are columns beside the time (status codes); many, or long names (the admin overview's routes), are
 * listed one row per time and series, so the table fits its column at any width instead of scrolling sideways or
 * wrapping a header a letter at a time.
 */
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
  const long = drawnLong(columns);
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
              {long ? (
                <>
                  <th scope="col" className="px-2 py-1">
                    Series
                  </th>
                  <th scope="col" className="w-28 px-2 py-1 text-right">
                    Value
                  </th>
                </>
              ) : (
                columns.map((c) => (
                  <th key={c} scope="col" className="px-2 py-1 text-right text-xs [overflow-wrap:anywhere]">
                    {c}
                  </th>
                ))
              )}
            </tr>
          </thead>
          <tbody>
            {long
              ? rows.flatMap((r) =>
                  columns.map((c, i) => (
                    <tr key={`${r.key} ${c}`} className="border-t border-line">
                      <th scope="row" className="px-2 py-1 font-normal whitespace-nowrap">
                        {r.label}
                      </th>
                      <td className="px-2 py-1 [overflow-wrap:anywhere]">{c}</td>
                      <td className="px-2 py-1 text-right tabular-nums">{r.cells[i]}</td>
                    </tr>
                  )),
                )
              : rows.map((r) => (
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
