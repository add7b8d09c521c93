/** Everything the analytics need for one environment: the current market plus the cached daily ATM-IV history. */
import type { Db } from "../db/client";
import type { MarketEnv } from "../analytics/types";
import { loadMarketSnapshot } from "../market/store-read";
import type { MarketSnapshotInput } from "./compute";
import { fillIvHistory, ivHistorySeries } from "./iv-history";

const NO_CHAIN_HISTORY = "9999-12-31"; // history enters through the iv_history cache, not as raw snapshots

export async function loadMarketInput(db: Db, env: MarketEnv, cutoff: Date | null = null): Promise<MarketSnapshotInput> {
  const snapshot = await loadMarketSnapshot(db, env, { cutoff, historyAfter: NO_CHAIN_HISTORY });
  await fillIvHistory(db, env, cutoff, snapshot.instruments, snapshot.dailyBarsBySymbol);
  return { ...snapshot, ivHistoryBySymbol: await ivHistorySeries(db, env, cutoff) };
}
