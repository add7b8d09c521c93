/**
 * The analytics engine: keeps one computed view per (market environment, entitlement) in memory, recomputed once
 * per data update (the version row) — no request reprices a chain. Delayed views read data at least 15 minutes old.
 * A year of chain history enters only through the persisted daily ATM-IV cache (./iv-history), so a reload reads the
 * current market, not every past snapshot.
 */
import type { Database } from "../db/client";
import type { MarketEnv } from "../analytics/types";
import { errorFields, log } from "../log";
import { metrics } from "../metrics/registry";
import { readMarketVersions } from "../market/versions";
import { loadMarketInput, type LoadedMarket } from "./load";
import { IvHistoryTracker } from "./iv-history";
import { startDemoTicker } from "../market/store-ticker";
import { demoWallClock } from "../market/demo-wall-clock";
import { snapshotsAfterTick } from "./history";
import { computeMarketView, type MarketSnapshotInput, type MarketView } from "./compute";
import { createQueries, type StaleCheck } from "./queries";
import type { AnalyticsEngine, ViewSpec } from "./types";

const DELAY_MS = 15 * 60_000;
const POLL_MS = 1000;
/** A delayed view's cutoff moves with the clock; recompute it at most this often when no new data arrives. */
const DELAYED_REFRESH_MS = 60_000;

interface ViewState {
  version: number;
  computedAt: number;
  view: MarketView;
  /** What the view was computed from: the next load of the current market reads only what is newer. */
  snapshot: LoadedMarket;
}

export interface EngineOptions {
  seed: string;
  demoTicker: boolean;
  /** The engine's clock (delayed cutoffs) and the demo ticker's; default the system clock, the demo's wall clock for the ticker. */
  now?: () => Date;
  /** Called after each recompute of a view (the one subscription point, used by webhook events); errors are logged. */
  onRecompute?: (r: RecomputeNotice) => Promise<unknown> | void;
  /** Live data older than this check allows answers 503 (set when a provider keeps the live store fresh). */
  stale?: StaleCheck;
}

export interface RecomputeNotice {
  env: MarketEnv;
  entitlement: string;
  version: number;
  view: MarketView;
  snapshot: MarketSnapshotInput;
}

export type SnapshotLoader = (env: MarketEnv, cutoff: Date | null, previous?: LoadedMarket) => Promise<LoadedMarket>;

export class MarketEngine {
  private readonly states = new Map<string, ViewState>();
  private readonly inflight = new Map<string, Promise<ViewState>>();
  private versions: Record<MarketEnv, number> = { demo: -1, live: -1 };
  private poller: NodeJS.Timeout | null = null;
  private healthy = false;

  constructor(
    private readonly database: Database,
    private readonly load: SnapshotLoader,
    private readonly now: () => Date = () => new Date(),
    private readonly onRecompute?: EngineOptions["onRecompute"],
  ) {}

  async start(): Promise<void> {
    await this.poll();
    this.poller = setInterval(() => void this.poll(), POLL_MS);
    this.poller.unref();
  }

  private async poll(): Promise<void> {
    try {
      this.versions = await readMarketVersions(this.database.db);
      this.healthy = true;
      // Recompute views already in use in the background, so requests keep being served from the previous one.
      for (const key of this.states.keys()) {
        const [env, entitlement] = key.split("|") as [MarketEnv, string];
        if (this.isStale(key, env, entitlement)) void this.refresh(key, env, entitlement).catch(() => {});
      }
    } catch (err) {
      this.healthy = false;
      log.warn("market version poll failed", errorFields(err));
    }
  }

  private isStale(key: string, env: MarketEnv, entitlement: string): boolean {
    const state = this.states.get(key);
    if (!state) return true;
    if (state.version !== this.versions[env]) return true;
    return entitlement === "delayed-15m" && Date.now() - state.computedAt > DELAYED_REFRESH_MS;
  }

  private refresh(key: string, env: MarketEnv, entitlement: string): Promise<ViewState> {
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const version = this.versions[env];
    const run = (async () => {
      const started = performance.now();
      const cutoff = entitlement === "delayed-15m" ? new Date(this.now().getTime() - DELAY_MS) : null;
      const previous = this.states.get(key);
      const snapshot = await this.load(env, cutoff, cutoff === null ? previous?.snapshot : undefined);
      const view = computeMarketView(snapshot, previous?.view ?? null);
      const state: ViewState = { version, computedAt: Date.now(), view, snapshot };
      this.states.set(key, state);
      metrics.engine.recomputed(entitlement, (performance.now() - started) / 1000);
      log.debug("market view computed", {
        env,
        entitlement,
        ms: Math.round(view.computedMs),
        symbols: view.symbols.size,
      });
      if (this.onRecompute)
        void Promise.resolve(this.onRecompute({ env, entitlement, version, view, snapshot })).catch((err) =>
          log.warn("onRecompute failed", errorFields(err)),
        );
      return state;
    })().finally(() => this.inflight.delete(key));
    this.inflight.set(key, run);
    return run;
  }

  /** The current view; waits only when none has been computed yet. */
  view(spec: ViewSpec): MarketView | Promise<MarketView> {
    const entitlement = spec.env === "demo" ? "demo" : spec.entitlement;
    const key = `${spec.env}|${entitlement}`;
    const state = this.states.get(key);
    if (state) return state.view;
    return this.refresh(key, spec.env, entitlement).then((s) => s.view);
  }

  /** Computes the views a fresh process will certainly serve, so its first requests do not wait. */
  async warm(): Promise<void> {
    await this.view({ env: "demo", entitlement: "demo" });
    if (this.versions.live > 0)
      await Promise.all([
        this.view({ env: "live", entitlement: "live" }),
        this.view({ env: "live", entitlement: "delayed-15m" }),
      ]);
  }

  ready(): boolean {
    return this.healthy;
  }

  async stop(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await Promise.allSettled(this.inflight.values());
  }
}

export async function startMarketEngine(database: Database, options: EngineOptions): Promise<AnalyticsEngine> {
  const tracker = new IvHistoryTracker();
  const engine = new MarketEngine(
    database,
    (env, cutoff, previous) => loadMarketInput(database.db, env, cutoff, tracker, previous),
    options.now,
    options.onRecompute,
  );
  await engine.start();
  await engine.warm();
  const clock = options.now;
  const stopTicker = options.demoTicker
    ? startDemoTicker(database, {
        seed: options.seed,
        now: clock ? () => clock().getTime() : demoWallClock(),
        // Only the leader writes: the day's snapshots when a session closes, a year of them after a reseed.
        afterWrite: (w) => snapshotsAfterTick(database.db, options.seed, w),
      })
    : null;
  const queries = createQueries((spec) => engine.view(spec), options.now ?? (() => new Date()), options.stale);
  return {
    ...queries,
    ready: () => engine.ready(),
    async stop() {
      await stopTicker?.();
      await engine.stop();
    },
  };
}
