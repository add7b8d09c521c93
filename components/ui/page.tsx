import type { ReactNode } from "react";
import { cx } from "./cx";

/** The width of public pages (landing, pricing, account forms); dashboard and docs use the full width. */
export function Container({
  children,
  narrow,
  className,
}: {
  children: ReactNode;
  narrow?: boolean;
  className?: string;
}) {
  return (
    <div className={cx("mx-auto w-full px-4 py-8 sm:px-6 lg:py-10", narrow ? "max-w-xl" : "max-w-6xl", className)}>
      {children}
    </div>
  );
}

/** A page's title row: heading, one line of context, and the page's primary actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
      <div className="min-w-0 space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <div className="max-w-3xl text-sm text-muted [&_a]:underline">{description}</div> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** A titled block of a page. */
export function Section({
  id,
  title,
  actions,
  children,
  className,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={cx("space-y-3", className)}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A bordered surface. */
export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cx("rounded-lg border border-line bg-surface p-4", className)}>{children}</div>;
}
