/** The CSV/validation spec of every import kind. */
import type { ImportKind, KindRows, KindSpec } from "../types";
import { barsSpec } from "./bars";
import { chainSpec } from "./chain";
import { dividendsSpec } from "./dividends";
import { instrumentsSpec } from "./instruments";
import { tradesSpec } from "./trades";
import { treasurySpec } from "./treasury";

export const KIND_SPECS: { [K in ImportKind]: KindSpec<KindRows[K]> } = {
  instruments: instrumentsSpec,
  treasury: treasurySpec,
  bars: barsSpec,
  chain: chainSpec,
  trades: tradesSpec,
  dividends: dividendsSpec,
};

export function specFor<K extends ImportKind>(kind: K): KindSpec<KindRows[K]> {
  return KIND_SPECS[kind];
}
