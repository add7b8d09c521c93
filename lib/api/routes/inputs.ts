/** Input schemas shared by routes. Symbols: case-insensitive in, upper-case out (docs/api-contract.md §1). */
import { z } from "zod";
import { DOCUMENTED_NUMBER, type DocumentedNumber } from "../../contract/documented-number";

import { SYMBOL_PATTERN } from "../../analytics/types";

export { SYMBOL_PATTERN };

export const symbolSchema = z
  .string()
  .max(16)
  .transform((s) => s.toUpperCase())
  .refine((s) => SYMBOL_PATTERN.test(s), {
    message: "must be a ticker symbol: 1–6 letters, optionally . or - and 1–2 letters (e.g. BRK.B)",
  })
  .describe("Ticker symbol, case-insensitive (answered upper-case). Pattern ^[A-Z]{1,6}([.-][A-Z]{1,2})?$");

export const symbolParams = z.object({ symbol: symbolSchema }).strict();
export const tickerParams = z.object({ ticker: symbolSchema }).strict();

/**
 * Non-negative integer given as decimal digits only (no sign, exponent or fraction). Validated as the query string it
 * is; documented as the integer it means (lib/contract/documented-number.ts).
 */
export const nonNegativeIntString = (max: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, { message: "must be a non-negative integer" })
    .transform(Number)
    .refine((n) => n <= max, { message: `must be at most ${max}` })
    .meta({ [DOCUMENTED_NUMBER]: { type: "integer", minimum: 0, maximum: max } satisfies DocumentedNumber });

export const isoDateTimeString = z
  .string()
  .datetime({ offset: true, message: "must be an ISO 8601 date-time with a zone, e.g. 2026-11-20T14:30:00Z" })
  .transform((s) => new Date(s));

/** An enumerated query value, case-insensitive like symbols (type=Sweep is type=sweep); documented with its values. */
export const caseInsensitiveEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === "string" ? v.toLowerCase() : v), z.enum(values));
