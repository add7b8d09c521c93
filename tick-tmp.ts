import { createTestDatabase } from "./tests/helpers/test-db";
import { seedDemoMarket, advanceDemoMarket } from "./lib/market/store";
import { loadMarketSnapshot } from "./lib/market/store-read";
import { findHistoryGaps, loadIvHistory } from "./lib/market/iv-history-store";
import { loadMarketInput } from "./lib/engine/load";
import { computeMarketView } from "./lib/engine/compute";
import { seedTime, DEMO_SEED } from "./bench/setup";
const t = await createTestDatabase("tick");
try {
  const at0 = seedTime();
  await seedDemoMarket(t.db, { seed: DEMO_SEED, now: new Date(at0) });
  let view = computeMarketView(await loadMarketInput(t.db, "demo"), null);
  let at = at0;
  for (let i = 0; i < 3; i++) {
    await advanceDemoMarket(t.db, { seed: DEMO_SEED, from: at, to: at + 60_000 }); at += 60_000;
    const a = performance.now();
    const snap = await loadMarketSnapshot(t.db, "demo", { cutoff: null, withHistory: false });
    const b = performance.now();
    const gaps = await findHistoryGaps(t.db, "demo", null);
    const c = performance.now();
    const iv = await loadIvHistory(t.db, "demo", null);
    const d = performance.now();
    view = computeMarketView({ ...snap, ivHistoryBySymbol: iv }, view);
    const e = performance.now();
    console.log({ snapshot: b - a, gaps: c - b, nGaps: gaps.length, ivLoad: d - c, compute: e - d });
  }
} finally { await t.drop(); }
