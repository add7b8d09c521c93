/** Values the stream hub's unit tests share: a Sandbox test-key caller and stored rows (lib/api/stream/). */
import type { Caller } from "../../lib/api/credentials";
import type { StoredRow } from "../../lib/api/stream/frames";

export const streamCaller: Caller = {
  keyId: "key_1",
  accountId: "00000000-0000-0000-0000-000000000001",
  env: "test",
  style: "standard",
  keyPrefix: "sk_test_x",
  plan: {
    id: "sandbox",
    nameA: "Sandbox",
    nameB: "Sandbox",
    aPerMinute: 60,
    aPerMonth: 1000,
    bPerMinute: 60,
    bPerDay: 1000,
    bMaxPayloadBytes: 1_000_000,
    webhooks: false,
    dataEntitlement: "demo",
    liveKeyStyles: [],
    historyDays: 30,
    streamsPerKey: 2,
    features: { id: "sandbox", nameA: "Sandbox", nameB: "Sandbox" },
  },
};

/** A stored flow.block row of AAPL (premium 1,000 unless given). */
export const flowRow = (id: number, over: Partial<StoredRow> = {}, premium = 1000): StoredRow => ({
  id,
  env: "test",
  kind: "flow.block",
  symbol: "AAPL",
  payload: {
    id: `f${id}`,
    symbol: over.symbol ?? "AAPL",
    type: "block",
    premium,
    size: 1,
    time: "2026-11-24T00:00:00.000Z",
  },
  created_at: new Date("2026-11-24T00:00:00.000Z"),
  ...over,
});

/** Waits until `done()` holds, polling every 5 ms; fails after `ms`. */
export async function until(what: string, done: () => boolean, ms = 3000): Promise<void> {
  const by = Date.now() + ms;
  while (!done()) {
    if (Date.now() > by) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
