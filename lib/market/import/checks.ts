/**
 * Invariant checks on typed rows, shared by the CSV path and provider feeds. Messages name the CSV column
 * and echo the cell text when the row came from a file.
 */
import { SYMBOL_RE, isIsoDate, isValidDate, shown } from "./cells";
import type { Cells } from "./types";

interface NumberRule {
  /** Must be > 0. */
  positive?: boolean;
  /** Must be >= 0. */
  nonNegative?: boolean;
  min?: number;
  max?: number;
  /** Appended to a range failure, e.g. a units hint. */
  hint?: string;
}

export class RowChecker {
  readonly errors: string[] = [];
  constructor(private readonly cells?: Cells) {}

  show(col: string, value: unknown): string {
    return shown(this.cells, col, value);
  }

  fail(reason: string): false {
    this.errors.push(reason);
    return false;
  }

  number(col: string, v: unknown, rule: NumberRule = {}): v is number {
    const s = this.show(col, v);
    if (typeof v !== "number" || !Number.isFinite(v)) return this.fail(`${col} (${s}) is not a finite number`);
    if (rule.positive && v <= 0) return this.fail(`${col} (${s}) must be greater than 0`);
    if (rule.nonNegative && v < 0) return this.fail(`${col} (${s}) is negative`);
    if ((rule.min !== undefined && v < rule.min) || (rule.max !== undefined && v > rule.max)) {
      const hint = rule.hint ? ` (${rule.hint})` : "";
      return this.fail(`${col} (${s}) is outside the plausible range ${rule.min ?? "-∞"} to ${rule.max ?? "∞"}${hint}`);
    }
    return true;
  }

  /** Whole number >= 0 (or >= 1 when positive); `max` defaults to the safe-integer limit. */
  count(col: string, v: unknown, rule: { positive?: boolean; max?: number } = {}): v is number {
    const s = this.show(col, v);
    if (typeof v !== "number" || !Number.isInteger(v)) return this.fail(`${col} (${s}) is not a whole number`);
    if (v < 0) return this.fail(`${col} (${s}) is negative`);
    if (rule.positive && v === 0) return this.fail(`${col} (${s}) must be at least 1`);
    if (v > (rule.max ?? Number.MAX_SAFE_INTEGER)) return this.fail(`${col} (${s}) is too large`);
    return true;
  }

  symbol(col: string, v: unknown): v is string {
    if (typeof v === "string" && SYMBOL_RE.test(v)) return true;
    return this.fail(
      `${col} (${this.show(col, v)}) is not a valid upper-case symbol (1–6 letters, optional .X or -X class suffix)`,
    );
  }

  isoDate(col: string, v: unknown): v is string {
    if (isIsoDate(v)) return true;
    return this.fail(`${col} (${this.show(col, v)}) is not a valid YYYY-MM-DD date`);
  }

  instant(col: string, v: unknown): v is Date {
    if (isValidDate(v)) return true;
    return this.fail(`${col} (${this.show(col, v)}) is not a valid date-time`);
  }

  text(col: string, v: unknown, allowEmpty = false): v is string {
    if (typeof v === "string" && (allowEmpty || v.trim() !== "")) return true;
    return this.fail(`${col} is required`);
  }

  oneOf<T extends string>(col: string, v: unknown, values: readonly T[]): v is T {
    if (typeof v === "string" && (values as readonly string[]).includes(v)) return true;
    return this.fail(`${col} (${this.show(col, v)}) must be one of ${values.join(", ")}`);
  }

  /** bid/ask pair: both non-negative and bid <= ask. */
  quote(bid: unknown, ask: unknown): void {
    const okBid = this.number("bid", bid, { nonNegative: true });
    const okAsk = this.number("ask", ask, { nonNegative: true });
    if (okBid && okAsk && (ask as number) < (bid as number)) {
      this.fail(`ask (${this.show("ask", ask)}) is below bid (${this.show("bid", bid)})`);
    }
  }

  /** An option's expiry may not be before the as-of / trade time (12 h grace past expiry-day midnight UTC). */
  notExpired(expiry: unknown, at: unknown, atCol: string): void {
    if (!isIsoDate(expiry) || !isValidDate(at)) return;
    const limit = Date.parse(`${expiry}T00:00:00Z`) + 36 * 3_600_000;
    if (at.getTime() > limit) {
      this.fail(`expiry (${expiry}) is before the ${atCol} date (${at.toISOString().slice(0, 10)})`);
    }
  }
}

export const utcMidnight = (isoDate: string): Date => new Date(`${isoDate}T00:00:00Z`);
