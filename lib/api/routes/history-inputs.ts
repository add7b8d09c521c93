/** Inputs and checks shared by the history routes and `as_of` (docs/api-contract.md §7). */
import { z } from "zod";
import type { Db } from "../../db/client";
import { ApiError } from "../errors";
import type { ViewSpec } from "../../engine/types";
import { readHistoryDay } from "../../engine/history-read";

const DAY_MS = 86_400_000;

/** A real calendar date YYYY-MM-DD (2026-02-30 is refused). */
export const isoCalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date YYYY-MM-DD" })
  .refine(
    (s) => {
      const t = Date.parse(`${s}T00:00:00Z`);
      return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
    },
    { message: "must be a calendar date YYYY-MM-DD" },
  );

/** The date `days` calendar days after (negative: before) `date`. */
export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whether `from` lies within the plan's window: the last `historyDays` calendar days, today included. */
export function withinPlanWindow(from: string, today: string, historyDays: number): boolean {
  return from >= shiftDate(today, 1 - historyDays);
}

/** A stored day of a symbol, or the contract's 404s: unknown symbol, or no snapshot that day. */
export async function pastDayOf(db: Db, view: ViewSpec, symbol: string, date: string) {
  const day = await readHistoryDay(db, view.env, symbol, date);
  if (day === null) throw new ApiError("symbol_not_found", `The service has no data for symbol ${symbol}.`);
  if (day === "none")
    throw new ApiError(
      "not_found",
      `No snapshot of ${symbol} for ${date}: not a session day, or outside the stored history.`,
    );
  return day;
}

/** `as_of` on the analytics routes: a past New York date answers that day's stored snapshot. */
export const asOfQuery = z
  .object({
    as_of: isoCalendarDate
      .optional()
      .describe(
        "A past date (YYYY-MM-DD, New York session day): answers that day's snapshot, taken at its close, in the same " +
          "shape as today's answer (its as-of time says the day). Within the plan's history window " +
          "(Sandbox 30 days, Starter 90, Pro and Enterprise 400); 404 not_found for a day without a snapshot.",
      ),
  })
  .strict();
