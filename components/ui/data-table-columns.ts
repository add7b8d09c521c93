import type { ReactNode } from "react";
import { cx } from "./cx";
import { td, th } from "./table";

/** One column of a `DataTable`: its header, how a row fills its cell, and how it sits in the layout. */
export interface Column<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Width class of a fixed column (e.g. "w-32"); a column without one takes what the fixed ones leave. */
  width?: string;
  /** Numbers sit right-aligned while the table is a table; stacked cards keep them left. */
  align?: "left" | "right";
  /** Classes on every cell of the column. */
  className?: string;
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

/** A header cell's classes. */
export const headerClass = <Row>(c: Column<Row>) =>
  cx(th, c.width, c.align === "right" && "text-right", c.hideBelow && HIDE_BELOW[c.hideBelow]);

/** A body cell's classes; `wrap` lets long values (ids, e-mails, reasons) break anywhere instead of overflowing. */
export const cellClass = <Row>(c: Column<Row>, wrap = false) =>
  cx(
    td,
    (c.rowHeader || wrap) && "min-w-0",
    c.rowHeader && "font-medium",
    wrap && "break-words [overflow-wrap:anywhere]",
    c.align === "right" && "md:text-right",
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
