import type { ReactNode } from "react";
import { DocsNav } from "@/components/docs/docs-nav";

/** The reference and the guides share one navigation and the full width. */
export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-1 flex-col">
      <DocsNav />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
