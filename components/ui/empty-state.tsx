import type { ReactNode } from "react";
import { cx } from "./cx";

/** What is missing and what to do next, with the action that does it. */
export function EmptyState({
  title,
  children,
  action,
  className,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cx(
        "flex flex-col items-start gap-2 rounded-lg border border-dashed border-line-strong bg-subtle px-5 py-6",
        className,
      )}
    >
      <p className="font-medium">{title}</p>
      {children ? <div className="max-w-prose text-sm text-muted">{children}</div> : null}
      {action ? <div className="pt-1">{action}</div> : null}
    </div>
  );
}
