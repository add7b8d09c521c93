/** Everything the analytics need for one environment: the current market plus the cached daily ATM-IV history. */
import type { Db } from "../db/client";
import type { MarketEnv } from "../analytics/types";
import { loadMarketDelta, loadMarketSnapshot, type MarketSnapshot } from "../market/store-read";
import type { MarketSnapshotInput } from "./compute";
import { loadIvHistory } from "../market/iv-history-store";
import { fillIvHistory, type IvHistoryTracker } from "./iv-history";

export type LoadedMarket = MarketSnapshot & MarketSnapshotInput;

/**
 * With a tracker (the engine's), only history days after each symbol's newest cached day are looked for. With the
 * previous load of the current market (no cutoff), only what is newer than it is read (loadMarketDelta).
 */
export async function loadMarketInput(
  db: Db,
  env: MarketEnv,
  cutoff: Date | null = null,
  tracker?: IvHistoryTracker,
  previous?: LoadedMarket,
): Promise<LoadedMarket> {
  // History enters through the iv_history cache, not as raw snapshots.
  const snapshot =
    previous && cutoff === null
      ? await loadMarketDelta(db, env, previous)
      : await loadMarketSnapshot(db, env, { cutoff, withHistory: false });
  if (tracker)
    return {
      ...snapshot,
      ivHistoryBySymbol: await tracker.load(
        db,
        env,
        cutoff,
        snapshot.instruments,
        snapshot.dailyBarsBySymbol,
        snapshot.baseVersion,
      ),
    };
  await fillIvHistory(db, env, cutoff, snapshot.instruments, snapshot.dailyBarsBySymbol);
  return { ...snapshot, ivHistoryBySymbol: await loadIvHistory(db, env, cutoff) };
}
