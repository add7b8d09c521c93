import { generateDemoMarket } from "./lib/market/demo/simulator";
import { createHash } from "node:crypto";
const now = new Date("2026-11-18T17:42:31Z");
let t0 = performance.now();
const m = generateDemoMarket({ seed: 42, now });
const t1 = performance.now();
const m2 = generateDemoMarket({ seed: 42, now });
const t2 = performance.now();
const h = (x: unknown) => createHash("sha256").update(JSON.stringify(x)).digest("hex").slice(0, 16);
console.log("gen ms", (t1 - t0).toFixed(0), "cached", (t2 - t1).toFixed(0), h(m), h(m2));
for (const k of Object.keys(m) as (keyof typeof m)[]) { const v = m[k]; console.log(k, Array.isArray(v) ? v.length : v); }
const by = (s: string) => m.dailyBars.filter((b) => b.symbol === s);
for (const s of ["SPX", "VIX", "AAPL", "TSLA", "KO"]) { const b = by(s); console.log(s, b.length, b[0].close, b[b.length - 60].close, b[b.length - 1]); }
console.log(m.yields.slice(-13).map((y) => `${y.tenor}:${y.yieldPct}`).join(" "));
const c = m.chain.filter((q) => q.symbol === "AAPL");
console.log([...new Set(c.map((q) => q.expiry))], [...new Set(c.map((q) => q.strike))].length);
console.log(c.filter((q) => q.expiry === c[0].expiry && q.right === "P").slice(0, 30).map((q) => `${q.strike}:${q.bid}/${q.ask} v${q.volume} oi${q.openInterest}`).join("\n"));
console.log(m.trades.slice(0, 10));
console.log("conds", Object.entries(m.trades.reduce((a: any, t) => ((a[t.condition] = (a[t.condition] ?? 0) + 1), a), {})));
console.log(m.instruments.slice(0, 4));
