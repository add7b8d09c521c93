/**
 * The market events a recompute makes, shared by webhooks (lib/webhooks/producer.ts) and the live stream
 * (./stream-events.ts): each view's per-symbol state, and event detection, pure: compares the states of one data version
 * with the previous version's, for the thresholds subscribers asked for. A crossing fires on the version that crosses,
 * not again while the value stays beyond.
 */
import type { MarketSnapshotInput, MarketView } from "./compute";

export const MARKET_EVENTS = [
  "iv_rank.crossed_above",
  "iv_rank.crossed_below",
  "iv.day_change_exceeded",
  "no_trade.decision_changed",
] as const;
export type MarketEventType = (typeof MARKET_EVENTS)[number];

export interface SymbolState {
  ivRank: number | null; // 0–100
  /** 30-day ATM IV now minus at the previous session's close, in vol points (0.05 → 5). */
  ivDayChange: number | null;
  atmIv30: number | null;
  decision: string;
  asOf: string;
}

const round = (x: number | null, d: number) =>
  x === null || !Number.isFinite(x) ? null : Math.round(x * 10 ** d) / 10 ** d;

/** Per-symbol state of a view: IV rank, day IV change against the previous session's close, no-trade decision. */
export function symbolStates(view: MarketView, snapshot: MarketSnapshotInput): Record<string, SymbolState> {
  const out: Record<string, SymbolState> = {};
  for (const [symbol, a] of view.symbols) {
    const today = a.asOf.toISOString().slice(0, 10);
    const history = (snapshot.ivHistoryBySymbol.get(symbol) ?? []).filter((p) => p.date < today);
    const lastClose = history.length ? history[history.length - 1].atmIv30 : null;
    const iv = a.metrics.atmIv30;
    out[symbol] = {
      ivRank: round(a.metrics.ivRank, 1),
      atmIv30: round(iv, 4),
      ivDayChange: iv !== null && lastClose !== null ? round((iv - lastClose) * 100, 2) : null,
      decision: a.noTrade.decision,
      asOf: a.asOf.toISOString(),
    };
  }
  return out;
}

/** Thresholds subscribed per symbol, per event type (decision changes need none). */
export interface Subscriptions {
  above: Map<string, Set<number>>;
  below: Map<string, Set<number>>;
  change: Map<string, Set<number>>;
  decision: Set<string>;
}

export interface DetectedEvent {
  type: MarketEventType;
  symbol: string;
  threshold: number | null;
  data: Record<string, unknown>;
}

export function emptySubscriptions(): Subscriptions {
  return { above: new Map(), below: new Map(), change: new Map(), decision: new Set() };
}

export function addSubscription(
  subs: Subscriptions,
  events: string[],
  symbols: string[],
  params: Record<string, unknown>,
): void {
  const add = (m: Map<string, Set<number>>, v: unknown) => {
    if (typeof v !== "number") return;
    for (const s of symbols) m.set(s, (m.get(s) ?? new Set()).add(v));
  };
  if (events.includes("iv_rank.crossed_above")) add(subs.above, params.ivRankAbove);
  if (events.includes("iv_rank.crossed_below")) add(subs.below, params.ivRankBelow);
  if (events.includes("iv.day_change_exceeded")) add(subs.change, params.ivChangeAbove);
  if (events.includes("no_trade.decision_changed")) for (const s of symbols) subs.decision.add(s);
}

export function detectEvents(
  prev: Record<string, SymbolState> | null,
  cur: Record<string, SymbolState>,
  subs: Subscriptions,
): DetectedEvent[] {
  if (!prev) return []; // no earlier version seen: nothing has crossed yet
  const out: DetectedEvent[] = [];
  for (const [symbol, now] of Object.entries(cur)) {
    const before = prev[symbol];
    if (!before) continue;
    const base = { symbol, asOf: now.asOf };
    for (const t of subs.above.get(symbol) ?? []) {
      if (before.ivRank !== null && now.ivRank !== null && before.ivRank <= t && now.ivRank > t)
        out.push({
          type: "iv_rank.crossed_above",
          symbol,
          threshold: t,
          data: { ...base, threshold: t, previousIvRank: before.ivRank, ivRank: now.ivRank, atmIv30: now.atmIv30 },
        });
    }
    for (const t of subs.below.get(symbol) ?? []) {
      if (before.ivRank !== null && now.ivRank !== null && before.ivRank >= t && now.ivRank < t)
        out.push({
          type: "iv_rank.crossed_below",
          symbol,
          threshold: t,
          data: { ...base, threshold: t, previousIvRank: before.ivRank, ivRank: now.ivRank, atmIv30: now.atmIv30 },
        });
    }
    for (const t of subs.change.get(symbol) ?? []) {
      const was = before.ivDayChange === null ? 0 : Math.abs(before.ivDayChange);
      if (now.ivDayChange !== null && Math.abs(now.ivDayChange) > t && was <= t)
        out.push({
          type: "iv.day_change_exceeded",
          symbol,
          threshold: t,
          data: { ...base, threshold: t, ivDayChange: now.ivDayChange, atmIv30: now.atmIv30 },
        });
    }
    if (subs.decision.has(symbol) && before.decision !== now.decision)
      out.push({
        type: "no_trade.decision_changed",
        symbol,
        threshold: null,
        data: { ...base, previousDecision: before.decision, decision: now.decision },
      });
  }
  return out;
}
