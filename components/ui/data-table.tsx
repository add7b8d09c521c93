import type { MouseEvent, ReactNode } from "react";
import { cx } from "./cx";
import {
  type Column,
  cellClass,
  headerClass,
  STACKED,
  stackedLabel,
  type TableStyle,
  visibleColumns,
} from "./data-table-columns";
import { Skeleton } from "./skeleton";
import { cellLabel } from "./table";

export { actionsColumn, type Column, type TableStyle } from "./data-table-columns";

type RowData = Record<`data-${string}`, string | undefined>;

interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The table's name, as a visually hidden caption (or `ariaLabel` when a caption would repeat a heading). */
  caption?: ReactNode;
  ariaLabel?: string;
  /** `data-*` attributes of a row (what tests and scripts find it by). */
  rowData?: (row: Row) => RowData;
  /** A row that needs attention (an overdue request, a stale source) is tinted. */
  rowTone?: (row: Row) => "bad" | undefined;
  /**
   * A click anywhere on a row that is not on a control of its own. Pointer convenience only: the row must also hold
   * a button doing the same, which is the keyboard's (and the screen reader's) way to it.
   */
  onRowClick?: (row: Row) => void;
  /** Shown instead of the table when there are no rows; without it an empty table keeps its header. */
  empty?: ReactNode;
  /** What is loading ("keys"): grey rows announced as "Loading keys…" instead of the table. */
  loading?: string;
  /** Why the rows could not be read: shown instead of the table. */
  error?: ReactNode;
  /** Long values (ids, e-mails, reasons) break anywhere inside their cell. */
  wrap?: boolean;
  /** How the table is drawn: stacked cards below 768 px unless a plain style is given. */
  tableStyle?: TableStyle;
}

const INTERACTIVE = "a, button, input, select, textarea, summary, label, [role='menuitem']";

/**
 * Calls `open` for a click on the row itself: not on a control inside it, not in a menu or dialog the row opened (React
 * passes those clicks up through portals), not one that ends selecting text.
 */
const rowClick =
  <Row,>(row: Row, open: (row: Row) => void) =>
  (e: MouseEvent<HTMLTableRowElement>) => {
    const target = e.target as HTMLElement;
    if (!e.currentTarget.contains(target) || target.closest(INTERACTIVE)) return;
    if (window.getSelection()?.toString()) return;
    open(row);
  };

/**
 * The portal's and the admin console's one data table, driven by column definitions (components/ui/table.ts): a
 * fixed layout that fits its column at 1280 px, and below 768 px each row a stacked card whose cells carry their
 * labels, so the page never scrolls sideways.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { rows, empty, loading, error } = props;
  if (error)
    return (
      <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft px-3 py-2 text-sm text-bad">
        {error}
      </p>
    );
  if (loading) return <Skeleton what={loading} />;
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const columns = visibleColumns(props.columns);
  const style = props.tableStyle ?? STACKED;
  const drawn = (
    <table className={style.table} aria-label={props.ariaLabel}>
      {props.caption ? <caption className={style.caption}>{props.caption}</caption> : null}
      <thead className={style.thead}>
        <tr>
          {columns.map((c) => (
            <th key={c.id} scope="col" className={headerClass(c, style)}>
              {c.srOnlyHeader ? <span className="sr-only">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={style.tbody || undefined}>
        {rows.map((row) => (
          <BodyRow
            key={props.rowKey(row)}
            row={row}
            columns={columns}
            rowData={props.rowData}
            rowTone={props.rowTone}
            onRowClick={props.onRowClick}
            wrap={props.wrap}
            style={style}
          />
        ))}
      </tbody>
    </table>
  );
  return style.frame ? <div className={style.frame}>{drawn}</div> : drawn;
}

function BodyRow<Row>({
  row,
  columns,
  rowData,
  rowTone,
  onRowClick,
  wrap,
  style,
}: { row: Row; columns: Column<Row>[]; style: TableStyle } & Pick<
  DataTableProps<Row>,
  "rowData" | "rowTone" | "onRowClick" | "wrap"
>) {
  return (
    <tr
      className={cx(
        style.tr,
        rowTone?.(row) === "bad" && "bg-bad-soft/60 hover:bg-bad-soft",
        onRowClick && "cursor-pointer",
      )}
      onClick={onRowClick ? rowClick(row, onRowClick) : undefined}
      {...rowData?.(row)}
    >
      {columns.map((c) => {
        const label = style.stacks ? stackedLabel(c) : null;
        const content = (
          <>
            {label ? <span className={cellLabel}>{label}</span> : null}
            {c.cell(row)}
          </>
        );
        const className = cellClass(c, wrap, style);
        return c.rowHeader ? (
          <th key={c.id} scope="row" className={className}>
            {content}
          </th>
        ) : (
          <td key={c.id} className={className}>
            {content}
          </td>
        );
      })}
    </tr>
  );
}
