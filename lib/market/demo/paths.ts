/**
 * Daily paths of the demo market, walked forward from a fixed epoch so that each session's values never depend
 * on the time they are computed at. A two-state Markov regime drives the index implied vol; equities load on the
 * index return with their beta plus idiosyncratic noise, and revert slowly to their base price.
 */
import { BoundedMemo } from "../../util/bounded-memo";
import { type Rng, rngFor } from "./prng";
import { DEMO_UNIVERSE, isEarningsDay, isTradedProduct, type DemoSymbol } from "./universe";
import { sessionDayAt, sessionIndex } from "./calendar";

export type Regime = "calm" | "stressed";

/** One session of one symbol; `atmVol` is the short-dated ATM implied vol level at that close. */
export interface DailyPoint {
  open: number;
  close: number;
  atmVol: number;
  volume: number; // shares (index: a notional activity count)
}

export interface MarketDay {
  regime: Regime;
  indexVol: number; // SPX short-dated implied vol level
}

const P_CALM_TO_STRESS = 0.015;
const P_STRESS_TO_CALM = 0.06;
const TARGET_VOL: Record<Regime, number> = { calm: 0.13, stressed: 0.3 };
const DRIFT: Record<Regime, number> = { calm: 0.0006, stressed: -0.0015 };
const REVERSION = 1 / 300; // per session, on log price toward the base price
const REALISED_TO_IMPLIED = 0.85; // the variance risk premium: realised vol runs below implied
const SQRT_252 = Math.sqrt(252);

/** The long-run ATM vol of a symbol, its idiosyncratic share, and whether it reacts to stress. */
export function idioVol(sym: DemoSymbol): number {
  return Math.sqrt(Math.max(sym.baseVol * sym.baseVol - sym.beta * sym.beta * 0.16 * 0.16, 0.08 * 0.08));
}

export function longRunVol(sym: DemoSymbol): number {
  if (sym.kind === "index") return 0.19;
  return Math.sqrt(sym.beta * sym.beta * 0.18 * 0.18 + idioVol(sym) ** 2);
}

interface SymbolWalk {
  sym: DemoSymbol;
  rng: Rng;
  logPrice: number;
  volState: number; // OU log-multiplier on idiosyncratic vol
  points: DailyPoint[];
}

interface PathState {
  seed: string;
  marketRng: Rng;
  regime: Regime;
  indexVol: number;
  days: MarketDay[];
  index: SymbolWalk;
  vix: SymbolWalk;
  equities: Map<string, SymbolWalk>;
}

/** Each seed's paths so far, extended on demand; nine seeds at most (a handful in use; tests use several). */
const cache = new BoundedMemo<string, PathState>(9);

function walk(seed: string, sym: DemoSymbol): SymbolWalk {
  return { sym, rng: rngFor(seed, "daily", sym.symbol), logPrice: Math.log(sym.basePrice), volState: 0, points: [] };
}

/** The one demo symbol matching `pick` (the universe always lists one index and one volatility index). */
function universeMember(pick: (s: (typeof DEMO_UNIVERSE)[number]) => boolean): (typeof DEMO_UNIVERSE)[number] {
  const s = DEMO_UNIVERSE.find(pick);
  if (!s) throw new Error("demo universe lacks a required symbol");
  return s;
}

function createState(seed: string): PathState {
  const equities = new Map(DEMO_UNIVERSE.filter(isTradedProduct).map((s) => [s.symbol, walk(seed, s)]));
  const index = walk(
    seed,
    universeMember((s) => s.kind === "index"),
  );
  const vix = walk(
    seed,
    universeMember((s) => s.kind === "volatility_index"),
  );
  return { seed, marketRng: rngFor(seed, "market"), regime: "calm", indexVol: 0.15, days: [], index, vix, equities };
}

function dailyVolume(w: SymbolWalk, ret: number, dailyVol: number, stressed: boolean, earnings: boolean): number {
  const base = w.sym.kind === "index" ? 2.4e9 : 8e6 * w.sym.optionActivity * Math.sqrt(150 / w.sym.basePrice);
  const surprise = 1 + 0.6 * Math.min(4, Math.abs(ret) / Math.max(dailyVol, 1e-4));
  const noise = Math.exp(0.25 * w.rng.normal());
  return Math.round(base * surprise * noise * (stressed ? 1.4 : 1) * (earnings ? 2.5 : 1));
}

/** Advances the whole market by one session (index i = state.days.length). Always walked in order from the epoch. */
function step(state: PathState): void {
  const i = state.days.length;
  const dayMs = sessionDayAt(i);
  const m = state.marketRng;
  const u = m.next();
  if (state.regime === "calm" ? u < P_CALM_TO_STRESS : u < P_STRESS_TO_CALM)
    state.regime = state.regime === "calm" ? "stressed" : "calm";
  const stressed = state.regime === "stressed";
  const prevVol = state.indexVol;
  const zMarket = m.normal();
  const jumpU = m.next();
  const jumpZ = m.normal();
  const jump = stressed && jumpU < 0.04 ? -0.025 * Math.abs(jumpZ) : 0; // crash days only happen under stress
  const idxDaily = (prevVol * REALISED_TO_IMPLIED) / SQRT_252;
  const rMarket = DRIFT[state.regime] + idxDaily * zMarket + jump;
  // Vol mean-reverts to the regime level and rises when the index falls (the leverage effect).
  const volNoise = m.normal();
  state.indexVol = Math.min(
    0.85,
    Math.max(0.09, prevVol + 0.1 * (TARGET_VOL[state.regime] - prevVol) - 1.6 * rMarket + 0.008 * volNoise),
  );
  state.days.push({ regime: state.regime, indexVol: state.indexVol });

  const idx = state.index;
  const idxRet = rMarket - REVERSION * (idx.logPrice - Math.log(idx.sym.basePrice));
  const idxGap = 0.25 * idxRet + 0.001 * idx.rng.normal();
  const idxOpen = Math.exp(idx.logPrice + idxGap);
  idx.logPrice += idxRet;
  idx.points.push({
    open: idxOpen,
    close: Math.exp(idx.logPrice),
    atmVol: state.indexVol,
    volume: dailyVolume(idx, idxRet, idxDaily, stressed, false),
  });

  const vix = state.vix;
  const vixClose = 100 * state.indexVol * Math.exp(0.03 * vix.rng.normal());
  const prevVix = vix.points.length ? vix.points[vix.points.length - 1].close : 100 * prevVol;
  const vixOpen = prevVix * Math.exp(0.3 * Math.log(vixClose / prevVix) + 0.01 * vix.rng.normal());
  vix.logPrice = Math.log(vixClose);
  vix.points.push({ open: vixOpen, close: vixClose, atmVol: 0.6 + 1.2 * (state.indexVol - 0.13), volume: 0 });

  for (const w of state.equities.values()) {
    const s = w.sym;
    w.volState = 0.96 * w.volState + 0.05 * w.rng.normal();
    const idio = idioVol(s) * (stressed ? 1.25 : 1) * Math.exp(w.volState);
    const atmVol = Math.sqrt(s.beta * s.beta * state.indexVol * state.indexVol + idio * idio);
    const z = w.rng.normal();
    const jz = w.rng.normal();
    const earnings = isEarningsDay(s, dayMs);
    const earningsJump = earnings ? s.earningsMove * jz : 0;
    const diffusive = s.beta * (rMarket - DRIFT[state.regime]) + (idio * REALISED_TO_IMPLIED * z) / SQRT_252;
    const ret = 0.0003 + diffusive + earningsJump - REVERSION * (w.logPrice - Math.log(s.basePrice));
    const gap = 0.25 * diffusive + earningsJump + 0.002 * w.rng.normal();
    const open = Math.exp(w.logPrice + gap);
    w.logPrice += ret;
    const vol = dailyVolume(w, ret, atmVol / SQRT_252, stressed, earnings);
    w.points.push({ open, close: Math.exp(w.logPrice), atmVol, volume: vol });
  }
}

function stateFor(seed: number | string, dayMs: number): PathState {
  const state = cache.get(String(seed), createState);
  const need = sessionIndex(dayMs);
  if (need < 0) throw new Error(`demo market starts at 2016-01-04; got ${new Date(dayMs).toISOString()}`);
  while (state.days.length <= need) step(state);
  return state;
}

export function marketDay(seed: number | string, dayMs: number): MarketDay {
  return stateFor(seed, dayMs).days[sessionIndex(dayMs)];
}

/** The daily point of a symbol at a session (full-day values, as of that session's close). */
export function dailyPoint(seed: number | string, symbol: string, dayMs: number): DailyPoint {
  const state = stateFor(seed, dayMs);
  const w =
    symbol === state.index.sym.symbol
      ? state.index
      : symbol === state.vix.sym.symbol
        ? state.vix
        : state.equities.get(symbol);
  if (!w) throw new Error(`unknown demo symbol ${symbol}`);
  return w.points[sessionIndex(dayMs)];
}
