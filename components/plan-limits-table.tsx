import { connection } from "next/server";
import { listPlans, type PlanRow } from "@/lib/domain/plans";
import { errorFields, log } from "@/lib/log";
import { portalDb } from "@/lib/server/portal-db";
import { ScrollRegion } from "@/components/scroll-region";

const fmt = (n: number) => n.toLocaleString("en-US");
const kib = (bytes: number) => (bytes >= 1024 * 1024 ? `${fmt(bytes / (1024 * 1024))} MiB` : `${fmt(bytes / 1024)} KiB`);
const th = "px-3 py-2";
export const liveDataLabel = (p: PlanRow) => (p.dataEntitlement === "demo" ? "Demo data only" : p.dataEntitlement === "live" ? "Live" : "Delayed 15 minutes");

/** The plan rows from the database, or null when the store cannot be read (the page then says so). */
export async function loadPlans(): Promise<PlanRow[] | null> {
  await connection(); // read at request time: plans are data and change without a deploy
  try {
    return await listPlans(await portalDb());
  } catch (err) {
    log.error("plans could not be read", errorFields(err));
    return null;
  }
}

function PlanName({ p }: { p: PlanRow }) {
  return (
    <th scope="row" className={`${th} whitespace-nowrap font-medium`}>
      {p.nameA} <span className="font-normal text-slate-600">/ {p.nameB}</span>
    </th>
  );
}

export function FamilyATable({ plans }: { plans: PlanRow[] }) {
  return (
    <ScrollRegion label="Family A limits">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="mb-2 text-left text-slate-700">Family A limits (<code>/ticker</code>, <code>/signal-score</code>, <code>/options-flow</code>), per key. Windows are UTC.</caption>
        <thead className="bg-slate-100">
          <tr>
            <th scope="col" className={th}>Plan</th>
            <th scope="col" className={`${th} text-right`}>Requests per minute</th>
            <th scope="col" className={`${th} text-right`}>Requests per month</th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr key={p.id} className="border-t border-slate-200">
              <PlanName p={p} />
              <td className={`${th} text-right tabular-nums`}>{fmt(p.aPerMinute)}</td>
              <td className={`${th} text-right tabular-nums`}>{fmt(p.aPerMonth)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export function FamilyBTable({ plans }: { plans: PlanRow[] }) {
  return (
    <ScrollRegion label="Family B limits">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="mb-2 text-left text-slate-700">Family B limits (<code>/ai</code>, <code>/data</code>, <code>/alerts</code>, <code>/outputs</code>), per key. Windows are UTC.</caption>
        <thead className="bg-slate-100">
          <tr>
            <th scope="col" className={th}>Plan</th>
            <th scope="col" className={`${th} text-right`}>Requests per minute</th>
            <th scope="col" className={`${th} text-right`}>Requests per day</th>
            <th scope="col" className={`${th} text-right`}>Max request body</th>
            <th scope="col" className={th}>Webhooks</th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr key={p.id} className="border-t border-slate-200">
              <PlanName p={p} />
              <td className={`${th} text-right tabular-nums`}>{fmt(p.bPerMinute)}</td>
              <td className={`${th} text-right tabular-nums`}>{fmt(p.bPerDay)}</td>
              <td className={`${th} text-right tabular-nums`}>{kib(p.bMaxPayloadBytes)}</td>
              <td className={th}>{p.webhooks ? "Yes" : "No"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export function PlansUnavailable() {
  return <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-red-900">The plan catalogue cannot be read right now; reload the page in a moment.</p>;
}

/** Both families' limit tables, generated from the plan rows in the database. */
export async function PlanLimitsTable() {
  const plans = await loadPlans();
  if (!plans) return <PlansUnavailable />;
  return (
    <div className="space-y-6" data-testid="plan-limits">
      <FamilyATable plans={plans} />
      <FamilyBTable plans={plans} />
    </div>
  );
}
