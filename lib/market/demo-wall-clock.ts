/**
 * The wall clock the demo market runs on (its seed at start-up, its ticker): the system clock, or with DEMO_CLOCK_AT a
 * clock that reads that instant at DEMO_CLOCK_FROM and runs in real time from there. So the demo can be seen as at
 * another time — a Saturday morning, when its night session runs (./demo/clock.ts) — without touching the system
 * clock; tests inject it this way. Only the demo market's time moves: keys, usage, webhooks and live data keep wall time.
 */
import { appEnv } from "../env";

export interface DemoClockSettings {
  DEMO_CLOCK_AT?: string;
  DEMO_CLOCK_FROM?: string;
}

/** Epoch ms as the demo market sees them; without DEMO_CLOCK_FROM the clock reads DEMO_CLOCK_AT when this is called. */
export function demoWallClock(settings: DemoClockSettings = appEnv(), wall: () => number = Date.now): () => number {
  if (!settings.DEMO_CLOCK_AT) return wall;
  const at = Date.parse(settings.DEMO_CLOCK_AT);
  const from = settings.DEMO_CLOCK_FROM ? Date.parse(settings.DEMO_CLOCK_FROM) : wall();
  return () => at + (wall() - from);
}
