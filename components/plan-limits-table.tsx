import { PLAN_SEED } from "@/lib/domain/plans-catalogue";

const fmt = (n: number) => n.toLocaleString("en-US");
const kib = (bytes: number) => (bytes >= 1024 * 1024 ? `${fmt(bytes / (1024 * 1024))} MiB` : `${fmt(bytes / 1024)} KiB`);

type PlanLimits = Omit<(typeof PLAN_SEED)[number], "liveKeyStyles" | "rank">;

/** Plan limits: the rows given (the plans table), else the seed of the catalogue; `current` marks the account's plan. */
export function PlanLimitsTable({ plans = PLAN_SEED, current }: { plans?: readonly PlanLimits[]; current?: string } = {}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="mb-2 text-left text-slate-700">Limits per key, by the plan of the calling key. Windows are UTC.</caption>
        <thead className="bg-slate-100">
          <tr>
            <th scope="col" className="px-3 py-2">Plan (A / B name)</th>
            <th scope="col" className="px-3 py-2 text-right">A per minute</th>
            <th scope="col" className="px-3 py-2 text-right">A per month</th>
            <th scope="col" className="px-3 py-2 text-right">B per minute</th>
            <th scope="col" className="px-3 py-2 text-right">B per day</th>
            <th scope="col" className="px-3 py-2 text-right">B max body</th>
            <th scope="col" className="px-3 py-2">Webhooks</th>
            <th scope="col" className="px-3 py-2">Live data</th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr key={p.id} className="border-t border-slate-200">
              <th scope="row" className="whitespace-nowrap px-3 py-2 font-medium">
                {p.nameA} <span className="font-normal text-slate-600">/ {p.nameB}</span>
                {p.id === current ? <span className="ml-2 rounded bg-blue-100 px-2 py-0.5 text-xs font-semibold text-blue-900">Your plan</span> : null}
              </th>
              <td className="px-3 py-2 text-right tabular-nums">{fmt(p.aPerMinute)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{fmt(p.aPerMonth)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{fmt(p.bPerMinute)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{fmt(p.bPerDay)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{kib(p.bMaxPayloadBytes)}</td>
              <td className="px-3 py-2">{p.webhooks ? "Yes" : "No"}</td>
              <td className="whitespace-nowrap px-3 py-2">{p.dataEntitlement === "demo" ? "Demo only" : p.dataEntitlement}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
