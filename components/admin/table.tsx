import type { ReactNode } from "react";
import { ScrollRegion } from "@/components/scroll-region";

/**
 * A semantic table that wraps its cells; on a phone, where six columns cannot fit, it scrolls inside its own focusable
 * region and the page itself never scrolls sideways.
 */
export function AdminTable({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    <ScrollRegion label={caption} className="max-w-full overflow-x-auto">
      <table className="w-full table-fixed border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-300">
            {head.map((h) => (
              <th key={h} scope="col" className="px-2 py-2 font-semibold break-words [overflow-wrap:anywhere]">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollRegion>
  );
}

export const cell = "px-2 py-2 align-top break-words [overflow-wrap:anywhere]";

export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded border border-dashed border-slate-400 p-4 text-slate-700">{children}</p>;
}
