"use client";

import * as Tooltip from "@radix-ui/react-tooltip";
import { cx } from "./cx";

/** Text cut to one line; the full text shows on hover and on keyboard focus (long values only take a tab stop). */
export function Truncate({ text, className, min = 24 }: { text: string; className?: string; min?: number }) {
  const cls = cx("block min-w-0 truncate", className);
  if (text.length < min) return <span className={cls}>{text}</span>;
  return (
    <Tooltip.Root delayDuration={200}>
      <Tooltip.Trigger asChild>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focus shows the full text of a cut value */}
        <span tabIndex={0} className={cls}>
          {text}
        </span>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content
          side="top"
          align="start"
          sideOffset={4}
          className="z-50 max-w-[min(28rem,calc(100vw-2rem))] rounded-md border border-line bg-surface px-2.5 py-1.5 text-xs break-all text-fg shadow-lg"
        >
          {text}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}
