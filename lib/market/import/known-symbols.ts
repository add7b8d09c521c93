/** Rows that reference a symbol with no `instruments` row in the target environment. */
import { and, eq, inArray } from "drizzle-orm";
import { instruments } from "../../../db/schema";
import type { Db } from "../../db/client";
import type { MarketEnv } from "../../analytics/types";
import { SYMBOL_RE } from "./cells";
import { lineOf } from "./validate";
import type { ImportError, KindSpec } from "./types";

export async function findUnknownSymbols<R>(
  db: Pick<Db, "select">,
  spec: KindSpec<R>,
  rows: readonly R[],
  env: MarketEnv,
  lines?: readonly number[],
): Promise<ImportError[]> {
  const symbolFn = spec.symbol;
  if (!symbolFn) return [];
  const symbolOf = (row: R): string | null => {
    const s = symbolFn(row);
    return typeof s === "string" && SYMBOL_RE.test(s) ? s : null;
  };
  const wanted = [...new Set(rows.map(symbolOf).filter((s): s is string => s !== null))];
  if (!wanted.length) return [];
  const found = await db
    .select({ symbol: instruments.symbol })
    .from(instruments)
    .where(and(eq(instruments.env, env), inArray(instruments.symbol, wanted)));
  const known = new Set(found.map((r) => r.symbol));
  const errors: ImportError[] = [];
  rows.forEach((row, i) => {
    const s = symbolOf(row);
    if (s !== null && !known.has(s)) {
      errors.push({
        line: lineOf(lines, i),
        reason: `symbol ${s} has no row in instruments (${env}); import it with kind instruments first`,
      });
    }
  });
  return errors;
}
