/** Fixed UTC windows: minute (burst), calendar day (family B quota), calendar month (family A quota). */
type Family = "A" | "B";

/** The per-plan limits the windows carry (a plan row from the API's config cache or the domain satisfies it). */
export interface WindowLimits {
  aPerMinute: number;
  bPerMinute: number;
  aPerMonth: number;
  bPerDay: number;
}

export interface WindowBounds {
  name: "minute" | "day" | "month";
  bucket: string; // counter bucket, e.g. "A:minute"
  start: Date;
  end: Date;
}

export interface Window extends WindowBounds {
  limit: number;
}

export function burstWindow(family: Family, plan: Pick<WindowLimits, "aPerMinute" | "bPerMinute">, now: Date): Window {
  const start = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  return {
    name: "minute",
    bucket: `${family}:minute`,
    start,
    end: new Date(start.getTime() + 60_000),
    limit: family === "A" ? plan.aPerMinute : plan.bPerMinute,
  };
}

/** The quota window a family counts in at `now`: the calendar month for A, the calendar day for B. */
export function quotaBounds(family: Family, now: Date): WindowBounds & { name: "day" | "month" } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  if (family === "A") {
    return {
      name: "month",
      bucket: "A:month",
      start: new Date(Date.UTC(y, m, 1)),
      end: new Date(Date.UTC(y, m + 1, 1)),
    };
  }
  const d = now.getUTCDate();
  return { name: "day", bucket: "B:day", start: new Date(Date.UTC(y, m, d)), end: new Date(Date.UTC(y, m, d + 1)) };
}

export function quotaWindow(
  family: Family,
  plan: Pick<WindowLimits, "aPerMonth" | "bPerDay">,
  now: Date,
): Window & { name: "day" | "month" } {
  const { name, bucket, start, end } = quotaBounds(family, now);
  return { name, bucket, start, end, limit: family === "A" ? plan.aPerMonth : plan.bPerDay };
}

export const windowSeconds = (w: Window) => Math.round((w.end.getTime() - w.start.getTime()) / 1000);
export const secondsLeft = (w: Window, now: Date) => Math.max(1, Math.ceil((w.end.getTime() - now.getTime()) / 1000));
