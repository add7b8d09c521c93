import type { ReactNode } from "react";
import { cx } from "@/components/ui/cx";
import { cellLabel, frame, table, tbody, td, th, thead, tr } from "@/components/ui/table";

export interface Column {
  label: string;
  /** Width class of a fixed column (e.g. "w-32"); one column without a width takes what is left. */
  width?: string;
  /** Visually hidden header (an actions column). */
  hidden?: boolean;
}

/**
 * Children-style table kept for `sync-freshness.tsx` only (changed on another branch); every other table is a
 * `DataTable` (components/ui/data-table.tsx) with column definitions, and this one should move there too.
 * The portal's data table (components/ui/table.ts): fixed layout that fits its column at 1280 px, each row a stacked
 * card below 768 px with every cell labelled. Rows are `Row`s of `Cell`s in the columns' order.
 */
export function AdminTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: Column[];
  children: ReactNode;
}) {
  return (
    <div className={frame}>
      <table className={table}>
        <caption className="sr-only">{caption}</caption>
        <thead className={thead}>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={cx(th, c.width)}>
                {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={tbody}>{children}</tbody>
      </table>
    </div>
  );
}

export function Row({ children, tone }: { children: ReactNode; tone?: "bad" }) {
  return <tr className={cx(tr, tone === "bad" && "bg-bad-soft/60 hover:bg-bad-soft")}>{children}</tr>;
}

/** A cell with its column's label shown before the value when rows stack; long values wrap inside the cell. */
export function Cell({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <td className={cx(td, "min-w-0 break-words [overflow-wrap:anywhere]", className)}>
      <span className={cellLabel}>{label}</span>
      {children}
    </td>
  );
}
