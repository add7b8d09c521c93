/**
 * The one rounding rule for every published number: half away from zero at `dp` decimals, after toPrecision(12)
 * removes binary noise (4.2 − 4.6 = −0.39999…); never returns −0. Non-finite input has no rounding: it is null.
 */
export function round(x: number, dp: number): number {
  const f = 10 ** dp;
  if (!Number.isFinite(x * f)) return x; // beyond double precision at dp decimals already (or not a number)
  const r = (Math.sign(x) * Math.round(Number((Math.abs(x) * f).toPrecision(12)))) / f;
  return r === 0 ? 0 : r;
}

/** `round` for optional values: null, undefined, NaN and ±Infinity all publish as null. */
export function roundOrNull(x: number | null | undefined, dp: number): number | null {
  return x === null || x === undefined || !Number.isFinite(x) ? null : round(x, dp);
}
