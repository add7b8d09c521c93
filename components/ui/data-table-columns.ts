import type { ReactNode } from "react";
import { cx } from "./cx";
import * as stacked from "./table";

/** One column of a `DataTable`: its header, how a row fills its cell, and how it sits in the layout. */
export interface Column<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Width class of a fixed column (e.g. "w-32"); a column without one takes what the fixed ones leave. */
  width?: string;
  /** Numbers sit right-aligned while the table is a table; stacked cards keep them left. */
  align?: "left" | "right";
  /** Classes on every body cell of the column. */
  className?: string;
  /** Classes on its header cell only. */
  headerClassName?: string;
  /** The header is read by screen readers only (an actions column). */
  srOnlyHeader?: boolean;
  /** The cell is the row's header (`th scope="row"`): it names the row. */
  rowHeader?: boolean;
  /** What a stacked cell shows before its value below 768 px: the header unless given; false for nothing. */
  label?: string | false;
  /** Below this breakpoint the column is left out (a detail a phone does without). */
  hideBelow?: "sm" | "md" | "lg";
  /** false leaves the column out altogether (one that exists only for some roles or some data). */
  when?: boolean;
}

const HIDE_BELOW = { sm: "max-sm:hidden", md: "max-md:hidden", lg: "max-lg:hidden" } as const;

/** The columns that are drawn, in their order. */
export const visibleColumns = <Row>(columns: readonly Column<Row>[]) => columns.filter((c) => c.when !== false);

/** The label a stacked cell shows before its value, or null: a row header and `label: false` show none. */
export const stackedLabel = <Row>(c: Column<Row>): string | null =>
  c.label === false ? null : (c.label ?? (c.rowHeader ? null : c.header));

/**
 * How a table is drawn. `STACKED` (components/ui/table.ts): a framed table from 768 px, each row a labelled card below.
 * A `plain` style is always a table (the charts' number tables, the plan limits), sized by its own container.
 */
export interface TableStyle {
  frame: string;
  table: string;
  caption: string;
  thead: string;
  th: string;
  tbody: string;
  tr: string;
  td: string;
  /** Rows become cards below 768 px: cells carry labels, numbers align right only while it is a table. */
  stacks: boolean;
}

export const STACKED: TableStyle = {
  frame: stacked.frame,
  table: stacked.table,
  caption: "sr-only",
  thead: stacked.thead,
  th: stacked.th,
  tbody: stacked.tbody,
  tr: stacked.tr,
  td: stacked.td,
  stacks: true,
};

/** A header cell's classes. */
export const headerClass = <Row>(c: Column<Row>, style: TableStyle = STACKED) =>
  cx(style.th, c.width, c.align === "right" && "text-right", c.hideBelow && HIDE_BELOW[c.hideBelow], c.headerClassName);

/** A body cell's classes; `wrap` lets long values (ids, e-mails, reasons) break anywhere instead of overflowing. */
export const cellClass = <Row>(c: Column<Row>, wrap = false, style: TableStyle = STACKED) =>
  cx(
    style.td,
    style.stacks && (c.rowHeader || wrap) && "min-w-0",
    style.stacks && c.rowHeader && "font-medium",
    wrap && "break-words [overflow-wrap:anywhere]",
    c.align === "right" && (style.stacks ? "md:text-right" : "text-right"),
    c.hideBelow && HIDE_BELOW[c.hideBelow],
    c.className,
  );

/** A row's controls (a menu, buttons) at the end: its header read by screen readers only, no label on the card. */
export const actionsColumn = <Row>(
  cell: Column<Row>["cell"],
  { header = "Actions", width, when }: { header?: string; width: string; when?: boolean },
): Column<Row> => ({
  id: "actions",
  header,
  srOnlyHeader: true,
  label: false,
  width,
  className: "md:text-right",
  when,
  cell,
});
