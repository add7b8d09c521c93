/** Plan catalogue and licensing states, read from the database and cached briefly in each process. */
import type { Database } from "../db/client";
import { TtlCache } from "../util/ttl-cache";

export interface Plan {
  id: string;
  nameA: string;
  nameB: string;
  aPerMinute: number;
  aPerMonth: number;
  bPerMinute: number;
  bPerDay: number;
  bMaxPayloadBytes: number;
  webhooks: boolean;
  dataEntitlement: "demo" | "delayed-15m" | "live";
  liveKeyStyles: string[];
  /** How many calendar days back (today included) history and `as_of` reach on this plan. */
  historyDays: number;
  /** Concurrent live streams a key on this plan may hold open (stream_leases, across every process). */
  streamsPerKey: number;
  /**
   * The plan whose features (webhooks, history window, streams per key, max payload) these are: the plan itself, or
   * for a test key the account's plan (test mode mirrors live, docs/api-contract.md §3). Feature errors name it.
   */
  features: { id: string; nameA: string; nameB: string };
}

/** What a test key runs under: Sandbox's limits, label and name (`meta.plan`), the account plan's features. */
export function mirrorTestPlan(sandbox: Plan, account: Plan): Plan {
  return {
    ...sandbox,
    bMaxPayloadBytes: account.bMaxPayloadBytes,
    webhooks: account.webhooks,
    historyDays: account.historyDays,
    streamsPerKey: account.streamsPerKey,
    features: account.features,
  };
}

export type LicensingState = "enabled" | "pending_licensing";

export interface GatewayConfig {
  plans: Map<string, Plan>;
  /** By account plan id: the plan a test key of such an account runs under (one object each, so caches can key on it). */
  testPlans: Map<string, Plan>;
  licensing: Map<string, LicensingState>; // `${endpointId}|${env}`
}

export class ConfigCache {
  private readonly cache: TtlCache<"config", GatewayConfig>;

  constructor(database: Database, ttlMs: number) {
    this.cache = new TtlCache(ttlMs, 1, async () => {
      const [planRows, licensingRows] = await Promise.all([
        database.sql`select id, name_a, name_b, a_per_minute, a_per_month, b_per_minute, b_per_day,
          b_max_payload_bytes, webhooks, data_entitlement, live_key_styles, history_days, streams_per_key from plans`,
        database.sql`select endpoint_id, env, state from endpoint_licensing`,
      ]);
      const plans = new Map<string, Plan>();
      for (const r of planRows) {
        plans.set(r.id, {
          id: r.id,
          nameA: r.name_a,
          nameB: r.name_b,
          aPerMinute: r.a_per_minute,
          aPerMonth: r.a_per_month,
          bPerMinute: r.b_per_minute,
          bPerDay: r.b_per_day,
          bMaxPayloadBytes: r.b_max_payload_bytes,
          webhooks: r.webhooks,
          dataEntitlement: r.data_entitlement,
          liveKeyStyles: r.live_key_styles,
          historyDays: r.history_days,
          streamsPerKey: r.streams_per_key,
          features: { id: r.id, nameA: r.name_a, nameB: r.name_b },
        });
      }
      const sandbox = plans.get("sandbox");
      const testPlans = new Map<string, Plan>();
      if (sandbox) for (const [id, plan] of plans) testPlans.set(id, mirrorTestPlan(sandbox, plan));
      const licensing = new Map<string, LicensingState>();
      for (const r of licensingRows) licensing.set(`${r.endpoint_id}|${r.env}`, r.state);
      return { plans, testPlans, licensing };
    });
  }

  get(): GatewayConfig | Promise<GatewayConfig> {
    return this.cache.get("config");
  }

  invalidate(): void {
    this.cache.invalidate();
  }
}

/** A missing licensing row fails closed: an endpoint nobody reviewed is not served. */
export function licensingState(config: GatewayConfig, endpointId: string, env: "test" | "live"): LicensingState {
  return config.licensing.get(`${endpointId}|${env}`) ?? "pending_licensing";
}
