/**
 * The live stream's quota budgets: per account and key environment (the quota's scope), the units known to be left in
 * the current quota window: the limit, less the use at the last metering decision, less the events sent on the budget
 * and not metered yet. While a budget covers a round's events they are sent at once and metered afterwards
 * (./meter.ts); past it, or when no decision is known in this window, they are metered first.
 */
import { quotaWindow, type Window } from "../../limits/windows";
import type { Caller } from "../credentials";

interface Budget {
  windowStart: number;
  left: number;
  unmetered: number;
}

/** The quota windows' starts of one round, by plan: computed once per plan, whatever the streams. */
export type RoundWindows = Map<Caller["plan"], number>;

/** A metering decision: `used` of the window's quota were used after it. */
export interface Decision {
  caller: Caller;
  quota: Window;
  used: number;
}

const scope = (c: Caller) => `${c.accountId}|${c.env}`;

export class Budgets {
  private readonly known = new Map<string, Budget>();

  /**
   * Takes up to `n` units of the caller's budget in `now`'s window and answers how many it covered: 0 when no budget is
   * known in that window (or none is left).
   */
  take(caller: Caller, n: number, now: Date, windows: RoundWindows): number {
    const b = this.known.get(scope(caller));
    if (!b) return 0;
    let start = windows.get(caller.plan);
    if (start === undefined) windows.set(caller.plan, (start = quotaWindow("B", caller.plan, now).start.getTime()));
    if (start !== b.windowStart) return 0;
    const covered = Math.min(Math.max(b.left, 0), n);
    b.left -= covered;
    b.unmetered += covered;
    return covered;
  }

  /** `n` events sent on the caller's budget were metered: they no longer count as unmetered. */
  metered(caller: Caller, n: number): void {
    const b = this.known.get(scope(caller));
    if (b) b.unmetered -= n;
  }

  /**
   * One metering round's decisions: per scope, the one that saw the most use sets what is left (the events sent since
   * and not metered yet stay taken).
   */
  decided(decisions: readonly Decision[]): void {
    const latest = new Map<string, Decision>();
    for (const d of decisions) {
      const key = scope(d.caller);
      const seen = latest.get(key);
      if (!seen || d.used > seen.used) latest.set(key, d);
    }
    for (const [key, d] of latest) this.set(key, d.quota, d.used);
  }

  /** The opening call's decision seeds its account's budget when none is known. */
  seed(caller: Caller, quotaUsed: number, now: Date): void {
    const key = scope(caller);
    if (!this.known.has(key)) this.set(key, quotaWindow("B", caller.plan, now), quotaUsed);
  }

  private set(key: string, quota: Window, used: number): void {
    const b = this.known.get(key);
    const unmetered = b && b.windowStart === quota.start.getTime() ? b.unmetered : 0;
    this.known.set(key, {
      windowStart: quota.start.getTime(),
      left: Math.max(0, quota.limit - used - unmetered),
      unmetered,
    });
  }
}
