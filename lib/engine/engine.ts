/**
 * The analytics engine: keeps one computed view per (market environment, entitlement) in memory, recomputed once
 * per data update (the version row) — no request reprices a chain. Delayed views read data at least 15 minutes old.
 */
import type { Database } from "../db/client";
import type { MarketEnv, OptionQuote } from "../analytics/types";
import { errorFields, log } from "../log";
import { readMarketVersions } from "../market/versions";
import { loadMarketSnapshot } from "../market/store-read";
import { startDemoTicker } from "../market/store";
import { computeMarketView, type MarketSnapshotInput, type MarketView } from "./compute";
import { createQueries } from "./queries";
import type { AnalyticsEngine, ViewSpec } from "./types";

const DELAY_MS = 15 * 60_000;
const POLL_MS = 1000;
/** A delayed view's cutoff moves with the clock; recompute it at most this often when no new data arrives. */
const DELAYED_REFRESH_MS = 60_000;
/** The demo ticker only appends, so demo views load just the new history days; a full reload now and then catches a reseed. */
const FULL_RELOAD_MS = 10 * 60_000;
const HISTORY_WINDOW_DAYS = 400;

interface ViewState {
  version: number;
  computedAt: number;
  view: MarketView;
  history: Map<string, OptionQuote[][]>;
  historyLastDate: string | null;
  fullLoadAt: number;
}

export interface EngineOptions {
  seed: string;
  demoTicker: boolean;
  now?: () => Date;
}

export type SnapshotLoader = (env: MarketEnv, cutoff: Date | null, historyAfter: string | null) => Promise<MarketSnapshotInput>;

const dateOf = (days: OptionQuote[][]) => days.at(-1)?.[0]?.asOf.toISOString().slice(0, 10) ?? null;

/** Appends newly loaded history days to the held ones (new arrays: the compute step keys its reuse on them). */
function mergeHistory(held: Map<string, OptionQuote[][]>, fresh: Map<string, OptionQuote[][]>, now: Date): Map<string, OptionQuote[][]> {
  const oldest = new Date(now.getTime() - HISTORY_WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);
  const merged = new Map<string, OptionQuote[][]>();
  for (const symbol of new Set([...held.keys(), ...fresh.keys()])) {
    const added = fresh.get(symbol) ?? [];
    const days = added.length ? [...(held.get(symbol) ?? []), ...added] : (held.get(symbol) ?? []);
    merged.set(symbol, days.length && (dateOf([days[0]]) ?? "") < oldest ? days.filter((d) => (dateOf([d]) ?? "") >= oldest) : days);
  }
  return merged;
}

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
      const now = this.now();
      const cutoff = entitlement === "delayed-15m" ? new Date(now.getTime() - DELAY_MS) : null;
      const prev = this.states.get(key);
      const incremental = env === "demo" && prev !== undefined && Date.now() - prev.fullLoadAt < FULL_RELOAD_MS;
      const snapshot = await this.load(env, cutoff, incremental ? prev.historyLastDate : null);
      const history = incremental ? mergeHistory(prev.history, snapshot.chainHistoryBySymbol, now) : snapshot.chainHistoryBySymbol;
      const view = computeMarketView({ ...snapshot, chainHistoryBySymbol: history }, prev?.view ?? null);
      let historyLastDate: string | null = null;
      for (const days of history.values()) {
        const d = dateOf(days);
        if (d && (!historyLastDate || d > historyLastDate)) historyLastDate = d;
      }
      const state: ViewState = {
        version, computedAt: Date.now(), view, history, historyLastDate, fullLoadAt: incremental ? prev.fullLoadAt : Date.now(),
      };
      this.states.set(key, state);
      log.debug("market view computed", { env, entitlement, ms: Math.round(view.computedMs), symbols: view.symbols.size });
      return state;
    })().finally(() => this.inflight.delete(key));
    this.inflight.set(key, run);
    return run;
  }

  /** The current view; waits only when none has been computed yet. */
  async view(spec: ViewSpec): Promise<MarketView> {
    const entitlement = spec.env === "demo" ? "demo" : spec.entitlement;
    const key = `${spec.env}|${entitlement}`;
    const state = this.states.get(key);
    if (state) return state.view;
    return (await this.refresh(key, spec.env, entitlement)).view;
  }

  /** Computes the views a fresh process will certainly serve, so its first requests do not wait. */
  async warm(): Promise<void> {
    await this.view({ env: "demo", entitlement: "demo" });
    if (this.versions.live > 0) await Promise.all([this.view({ env: "live", entitlement: "live" }), this.view({ env: "live", entitlement: "delayed-15m" })]);
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
  const engine = new MarketEngine(database, (env, cutoff, historyAfter) => loadMarketSnapshot(database.db, env, { cutoff, historyAfter }), options.now);
  await engine.start();
  await engine.warm();
  const stopTicker = options.demoTicker ? startDemoTicker(database, { seed: options.seed }) : null;
  const queries = createQueries((spec) => engine.view(spec), options.now ?? (() => new Date()));
  return {
    ...queries,
    ready: () => engine.ready(),
    async stop() {
      await stopTicker?.();
      await engine.stop();
    },
  };
}
