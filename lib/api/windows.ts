/** Fixed UTC windows: minute (burst), calendar day (family B quota), calendar month (family A quota). */
import type { Family } from "./route";
import type { Plan } from "./config-cache";

export interface Window {
  name: "minute" | "day" | "month";
  bucket: string; // counter bucket, e.g. "A:minute"
  start: Date;
  end: Date;
  limit: number;
}

export function burstWindow(family: Family, plan: Plan, now: Date): Window {
  const start = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  return {
    name: "minute",
    bucket: `${family}:minute`,
    start,
    end: new Date(start.getTime() + 60_000),
    limit: family === "A" ? plan.aPerMinute : plan.bPerMinute,
  };
}

export function quotaWindow(family: Family, plan: Pick<Plan, "aPerMonth" | "bPerDay">, now: Date): Window {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  if (family === "A") {
    return {
      name: "month",
      bucket: "A:month",
      start: new Date(Date.UTC(y, m, 1)),
      end: new Date(Date.UTC(y, m + 1, 1)),
      limit: plan.aPerMonth,
    };
  }
  const d = now.getUTCDate();
  return {
    name: "day",
    bucket: "B:day",
    start: new Date(Date.UTC(y, m, d)),
    end: new Date(Date.UTC(y, m, d + 1)),
    limit: plan.bPerDay,
  };
}

export const windowSeconds = (w: Window) => Math.round((w.end.getTime() - w.start.getTime()) / 1000);
export const secondsLeft = (w: Window, now: Date) => Math.max(1, Math.ceil((w.end.getTime() - now.getTime()) / 1000));
