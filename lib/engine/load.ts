/** Everything the analytics need for one environment: the current market plus the cached daily ATM-IV history. */
import type { Db } from "../db/client";
import type { MarketEnv } from "../analytics/types";
import { loadMarketSnapshot } from "../market/store-read";
import type { MarketSnapshotInput } from "./compute";
import { loadIvHistory } from "../market/iv-history-store";
import { fillIvHistory } from "./iv-history";

export async function loadMarketInput(db: Db, env: MarketEnv, cutoff: Date | null = null): Promise<MarketSnapshotInput> {
  // History enters through the iv_history cache, not as raw snapshots.
  const snapshot = await loadMarketSnapshot(db, env, { cutoff, withHistory: false });
  await fillIvHistory(db, env, cutoff, snapshot.instruments, snapshot.dailyBarsBySymbol);
  return { ...snapshot, ivHistoryBySymbol: await loadIvHistory(db, env, cutoff) };
}
