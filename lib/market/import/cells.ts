/** Cell-level text → value conversion for CSV imports; each failure is a specific, operator-readable reason. */
import type { OptionRight } from "../../analytics/bsm";
import type { Cells } from "./types";

export class CellError extends Error {}

import { SYMBOL_PATTERN as SYMBOL_RE } from "../../analytics/types";
import { isCalendarDay } from "../../util/calendar-day";

export { SYMBOL_RE };
const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER_RE = /^\+?\d+$/;
const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const US_DATE_RE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** Collects every cell error of one record instead of stopping at the first. */
export class CellReader {
  readonly errors: string[] = [];
  constructor(readonly cells: Cells) {}

  text(col: string): string {
    return (this.cells[col] ?? "").trim();
  }

  read<T>(col: string, parse: (s: string, col: string) => T): T | undefined {
    try {
      return parse(this.text(col), col);
    } catch (e) {
      if (!(e instanceof CellError)) throw e;
      this.errors.push(e.message);
      return undefined;
    }
  }
}

function required(s: string, col: string): string {
  if (s === "") throw new CellError(`${col} is required`);
  return s;
}

export function parseNumber(s: string, col: string): number {
  if (!NUMBER_RE.test(required(s, col))) throw new CellError(`${col} (${s}) is not a number`);
  const n = Number(s);
  if (!Number.isFinite(n)) throw new CellError(`${col} (${s}) is out of range`);
  return n;
}

export function parseOptionalNumber(s: string, col: string): number | null {
  return s === "" ? null : parseNumber(s, col);
}

/** A non-negative whole number (volumes, sizes, open interest). */
export function parseCount(s: string, col: string): number {
  if (!INTEGER_RE.test(required(s, col))) {
    if (NUMBER_RE.test(s) && Number(s) < 0) throw new CellError(`${col} (${s}) is negative`);
    throw new CellError(`${col} (${s}) is not a whole number`);
  }
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new CellError(`${col} (${s}) is too large`);
  return n;
}

export function parseText(s: string, col: string): string {
  return required(s, col);
}

/** Builds YYYY-MM-DD after checking that the day exists and the year is plausible (1900–2199). */
function ymd(y: number, m: number, d: number, s: string, col: string): string {
  if (y < 1900 || y > 2199 || !isCalendarDay(y, m, d)) {
    throw new CellError(`${col} (${s}) is not a valid date`);
  }
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** YYYY-MM-DD. */
export function parseIsoDate(s: string, col: string): string {
  const m = ISO_DATE_RE.exec(required(s, col));
  if (!m) throw new CellError(`${col} (${s}) is not a date in YYYY-MM-DD form`);
  return ymd(+m[1], +m[2], +m[3], s, col);
}

export function parseOptionalIsoDate(s: string, col: string): string | null {
  return s === "" ? null : parseIsoDate(s, col);
}

/** MM/DD/YYYY (the US Treasury's layout) → YYYY-MM-DD. */
export function parseUsDate(s: string, col: string): string {
  const m = US_DATE_RE.exec(required(s, col));
  if (!m) throw new CellError(`${col} (${s}) is not a date in MM/DD/YYYY form`);
  return ymd(+m[3], +m[1], +m[2], s, col);
}

/**
 * ISO 8601 date-time WITH a zone (Z or ±HH:MM / ±HHMM / ±HH); seconds and fraction optional; fractions
 * beyond milliseconds are truncated (the store keeps milliseconds).
 */
export function parseTimestamp(s: string, col: string): Date {
  const m = TIMESTAMP_RE.exec(required(s, col));
  if (!m) throw new CellError(`${col} (${s}) is not an ISO 8601 date-time such as 2025-01-17T15:30:00-05:00`);
  const [, y, mo, d, h, mi, sec, frac, z, sign, oh, om] = m;
  if (!z && !sign) throw new CellError(`${col} (${s}) has no time zone; add Z or an offset such as -05:00`);
  ymd(+y, +mo, +d, s, col);
  if (+h > 23 || +mi > 59 || +(sec ?? 0) > 59 || +(oh ?? 0) > 23 || +(om ?? 0) > 59) {
    throw new CellError(`${col} (${s}) is not a valid time of day or offset`);
  }
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, "0")) : 0;
  const offsetMin = sign ? (sign === "-" ? -1 : 1) * (+oh * 60 + +(om ?? 0)) : 0;
  return new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +(sec ?? 0), ms) - offsetMin * 60_000);
}

/** Case-insensitive input, stored upper-case. */
export function parseSymbol(s: string, col: string): string {
  const up = required(s, col).toUpperCase();
  if (!SYMBOL_RE.test(up))
    throw new CellError(`${col} (${s}) is not a valid symbol (1–6 letters, optional .X or -X class suffix)`);
  return up;
}

/** C, P, call or put (any case). */
export function parseRight(s: string, col: string): OptionRight {
  const v = required(s, col).toLowerCase();
  if (v === "c" || v === "call") return "C";
  if (v === "p" || v === "put") return "P";
  throw new CellError(`${col} (${s}) must be C, P, call or put`);
}

/** The cell text when the row came from CSV, else the value itself, so messages echo what the operator wrote. */
export function shown(cells: Cells | undefined, col: string, value: unknown): string {
  const raw = cells?.[col]?.trim();
  if (raw) return raw;
  return value instanceof Date ? (Number.isNaN(value.getTime()) ? "invalid date" : value.toISOString()) : String(value);
}

export function isIsoDate(s: unknown): s is string {
  if (typeof s !== "string") return false;
  try {
    return parseIsoDate(s, "") === s;
  } catch {
    return false;
  }
}

export function isValidDate(d: unknown): d is Date {
  return d instanceof Date && !Number.isNaN(d.getTime());
}
