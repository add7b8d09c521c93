"use client";

import { Button } from "@/components/ui/button";

/** How often the live tail asks for new calls. */
export const LIVE_MS = 3000;

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** The live tail's switch and what it last did; the new rows themselves are the announcement, so nothing is read out. */
export function LiveTail({ live, onToggle, checkedAt }: { live: boolean; onToggle: () => void; checkedAt: number }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button size="sm" onClick={onToggle}>
        {live ? "Pause live tail" : "Resume live tail"}
      </Button>
      <p className="text-xs text-muted" data-testid="live-tail-state">
        {live
          ? `Live: new calls appear within ${LIVE_MS / 1000} s${checkedAt ? `, last checked ${clock(checkedAt)} UTC` : ""}.`
          : "Paused: the log stays as it is until you resume."}
      </p>
    </div>
  );
}
