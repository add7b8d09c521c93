/**
 * The demo's night session (./clock.ts): how implied vols move while the underlyings rest at their close, and when
 * its prints arrive. Both are pure functions of (seed, night), like everything else in the demo market.
 */
import { BoundedMemo } from "../../util/bounded-memo";
import { MINUTE_MS } from "./calendar";
import { nightOf } from "./clock";
import { rngFor } from "./prng";

/** Relative vol-of-vol per √minute: at mid-night the ATM vol is off its close by about 2.4 % (weeknight), 4.7 % (weekend). */
const NIGHT_VOL_SIGMA = 0.0015;
/** One print event per slot, at a jittered place in it: gaps between events of 0.4 to 1.6 slots (8 to 32 s). */
export const NIGHT_SLOT_MS = 20_000;
/** Room left after the last slot for a sweep's legs, which all print before the next open. */
const NIGHT_TAIL_MS = 1_000;

const bridges = new BoundedMemo<string, Float64Array>(240);

/** Log factor on the close's vol at each minute of the night: a Brownian bridge from 0 back to 0 at the next open. */
function volBridge(key: string): Float64Array {
  const parts = key.split("|"); // seed|symbol|day, the seed being the only part that may hold a "|"
  const day = Number(parts.pop());
  const symbol = parts.pop() ?? "";
  const seed = parts.join("|");
  const { start, end } = nightOf(day);
  const n = Math.round((end - start) / MINUTE_MS);
  const rng = rngFor(seed, "night-vol", symbol, day);
  const w = new Float64Array(n + 1);
  for (let m = 1; m <= n; m++) w[m] = w[m - 1] + NIGHT_VOL_SIGMA * rng.fastNormal();
  const drift = w[n];
  for (let m = 0; m <= n; m++) w[m] -= (m / n) * drift;
  return w;
}

/** What multiplies the close's short-dated ATM vol at `minute` of the night after `day` (1 at both ends). */
export function nightVolFactor(seed: number | string, symbol: string, day: number, minute: number): number {
  const path = bridges.get(`${seed}|${symbol}|${day}`, volBridge);
  return Math.exp(path[Math.max(0, Math.min(minute, path.length - 1))]);
}

/** Print slots of the night after `day`. */
export function nightSlots(day: number): number {
  const { start, end } = nightOf(day);
  return Math.max(0, Math.floor((end - start - NIGHT_TAIL_MS) / NIGHT_SLOT_MS));
}

/** The first slot whose event can print after `t`, and the last one that can print by `t`. */
export function nightSlotRange(day: number, lo: number, hi: number): [number, number] {
  const { start } = nightOf(day);
  return [
    Math.max(0, Math.floor((lo - start) / NIGHT_SLOT_MS) - 1),
    Math.min(nightSlots(day) - 1, Math.floor((hi - start) / NIGHT_SLOT_MS)),
  ];
}

/** Start of slot k of the night after `day`; its event prints at start + (0.2 … 0.8) × NIGHT_SLOT_MS. */
export const nightSlotStart = (day: number, k: number) => nightOf(day).start + k * NIGHT_SLOT_MS;
