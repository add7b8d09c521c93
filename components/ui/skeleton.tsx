import { cx } from "./cx";

/** Grey blocks in the shape of what is loading, announced once as "Loading <what>…". */
export function Skeleton({ what, rows = 3, className }: { what: string; rows?: number; className?: string }) {
  return (
    <div role="status" className={cx("space-y-2", className)}>
      <span className="sr-only">Loading {what}…</span>
      {Array.from({ length: rows }, (_, i) => (
        <div
          key={i}
          aria-hidden="true"
          className="h-9 animate-pulse rounded-md bg-subtle motion-reduce:animate-none"
          style={{ width: `${100 - ((i * 13) % 30)}%` }}
        />
      ))}
    </div>
  );
}
