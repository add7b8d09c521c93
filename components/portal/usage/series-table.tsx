import { ScrollRegion } from "@/components/scroll-region";
import { type Column, DataTable, type TableStyle } from "@/components/ui/data-table";

/** Past this many series the table is drawn long (one row per time and series): wide ones would scroll or squeeze. */
const MAX_WIDE_SERIES = 6;
/** Series names longer than this in all cannot sit side by side at 375 px (they would wrap a letter at a time). */
const MAX_WIDE_HEADER_CHARS = 40;

/** Whether the table is drawn long: many series (the admin overview's routes), or names too long to sit side by side. */
export const drawnLong = (columns: readonly string[]) =>
  columns.length > MAX_WIDE_SERIES || columns.reduce((n, c) => n + c.length, 0) > MAX_WIDE_HEADER_CHARS;

/** A chart's number table: always a table (it scrolls inside its own region), compact, its header kept in view. */
const COMPACT: TableStyle = {
  frame: "",
  table: "w-full table-fixed border-collapse text-left text-sm",
  caption: "sr-only",
  thead: "sticky top-0 bg-subtle",
  th: "px-2 py-1",
  tbody: "",
  tr: "border-t border-line",
  td: "px-2 py-1",
  stacks: false,
};

type SeriesRow = { key: string; label: string; cells: (string | number)[] };
/** One time and one series of the long layout. */
type SeriesValue = { key: string; label: string; series: string; value: string | number };

const timeColumn = <Row extends { label: string }>(timeLabel: string): Column<Row> => ({
  id: "time",
  header: timeLabel,
  width: "w-28",
  rowHeader: true,
  className: "font-normal whitespace-nowrap",
  cell: (r) => r.label,
});

const wideColumns = (timeLabel: string, columns: string[]): Column<SeriesRow>[] => [
  timeColumn(timeLabel),
  ...columns.map(
    (c, i): Column<SeriesRow> => ({
      id: c,
      header: c,
      align: "right",
      headerClassName: "text-xs [overflow-wrap:anywhere]",
      className: "tabular-nums",
      cell: (r) => r.cells[i],
    }),
  ),
];

const longColumns = (timeLabel: string): Column<SeriesValue>[] => [
  timeColumn(timeLabel),
  { id: "series", header: "Series", className: "[overflow-wrap:anywhere]", cell: (v) => v.series },
  { id: "value", header: "Value", width: "w-28", align: "right", className: "tabular-nums", cell: (v) => v.value },
];

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
  rows: SeriesRow[];
}) {
  return (
    <details>
      <summary className="cursor-pointer text-xs font-medium text-link">Show the numbers as a table</summary>
      <ScrollRegion label={`${title}: table`} className="mt-2 max-h-80 overflow-auto">
        {drawnLong(columns) ? (
          <DataTable
            caption={title}
            tableStyle={COMPACT}
            columns={longColumns(timeLabel)}
            rows={rows.flatMap((r) =>
              columns.map((c, i) => ({ key: `${r.key} ${c}`, label: r.label, series: c, value: r.cells[i] })),
            )}
            rowKey={(v) => v.key}
          />
        ) : (
          <DataTable
            caption={title}
            tableStyle={COMPACT}
            columns={wideColumns(timeLabel, columns)}
            rows={rows}
            rowKey={(r) => r.key}
          />
        )}
      </ScrollRegion>
    </details>
  );
}
