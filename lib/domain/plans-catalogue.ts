/**
 * The seed of the plan catalogue (the A and B tables name the same four levels, docs/api-contract.md §3);
 * maxActiveKeys is the key cap documented in docs/security.md; historyDays the history window (docs/api-contract.md §7);
 * streamsPerKey the concurrent live streams a key may hold open (GET /api/v1/stream, docs/api-contract.md "Live
 * stream"; test keys use Sandbox's).
 */
import "server-only";
export const PLAN_SEED = [
  {
    id: "sandbox",
    nameA: "Sandbox",
    nameB: "Free Sandbox",
    rank: 0,
    aPerMinute: 10,
    aPerMonth: 100,
    bPerMinute: 5,
    bPerDay: 100,
    bMaxPayloadBytes: 10 * 1024,
    webhooks: false,
    dataEntitlement: "demo",
    liveKeyStyles: [] as string[],
    maxActiveKeys: 10,
    historyDays: 30,
    streamsPerKey: 2,
  },
  {
    id: "starter",
    nameA: "Starter",
    nameB: "API Starter",
    rank: 1,
    aPerMinute: 30,
    aPerMonth: 10_000,
    bPerMinute: 60,
    bPerDay: 10_000,
    bMaxPayloadBytes: 100 * 1024,
    webhooks: false,
    dataEntitlement: "delayed-15m",
    liveKeyStyles: ["sk"],
    maxActiveKeys: 20,
    historyDays: 90,
    streamsPerKey: 2,
  },
  {
    id: "pro",
    nameA: "Pro",
    nameB: "API Pro",
    rank: 2,
    aPerMinute: 120,
    aPerMonth: 100_000,
    bPerMinute: 300,
    bPerDay: 100_000,
    bMaxPayloadBytes: 1024 * 1024,
    webhooks: true,
    dataEntitlement: "live",
    liveKeyStyles: ["live", "sk"],
    maxActiveKeys: 50,
    historyDays: 400,
    streamsPerKey: 10,
  },
  {
    id: "enterprise",
    nameA: "Enterprise",
    nameB: "API Business",
    rank: 3,
    aPerMinute: 600,
    aPerMonth: 2_000_000,
    bPerMinute: 1000,
    bPerDay: 1_000_000,
    bMaxPayloadBytes: 10 * 1024 * 1024,
    webhooks: true,
    dataEntitlement: "live",
    liveKeyStyles: ["live", "sk"],
    maxActiveKeys: 200,
    historyDays: 400,
    streamsPerKey: 100,
  },
];

export { PLAN_IDS, type PlanId } from "../shared/input-choices";

/**
 * The seed's concurrent open streams per key on a plan (1 for a plan not in the catalogue). The server reads the
 * plans table's streams_per_key (migration 0023); this is the documented default that seeds it.
 */
export const streamsPerKey = (planId: string): number => PLAN_SEED.find((p) => p.id === planId)?.streamsPerKey ?? 1;
