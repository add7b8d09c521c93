import type { ReactNode } from "react";

/** A container that may scroll (wide tables on small screens): focusable and named, so keyboard users can scroll it. */
export function ScrollRegion({
  label,
  className = "overflow-x-auto",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={className}>
      {children}
    </div>
  );
}
