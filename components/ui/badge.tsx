import type { HTMLAttributes } from "react";
import { cx } from "./cx";

export type Tone = "neutral" | "ok" | "warn" | "bad" | "info";

const TONE: Record<Tone, string> = {
  neutral: "bg-subtle text-fg border-line",
  ok: "bg-ok-soft text-ok border-ok/30",
  warn: "bg-warn-soft text-warn border-warn/30",
  bad: "bg-bad-soft text-bad border-bad/30",
  info: "bg-info-soft text-info border-info/30",
};

/** A status pill: colour says the state at a glance, the text says it in words. */
export function Badge({ tone = "neutral", className, ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: Tone }) {
  return (
    <span
      className={cx(
        "inline-flex max-w-full items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap",
        TONE[tone],
        className,
      )}
      {...props}
    />
  );
}

/** The tone of an HTTP status code. */
export function statusTone(status: number): Tone {
  if (status >= 500) return "bad";
  if (status === 429) return "warn";
  if (status >= 400) return "bad";
  if (status >= 300) return "info";
  return "ok";
}
