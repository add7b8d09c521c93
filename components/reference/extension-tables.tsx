import { InlineText } from "./rich-text";
import type { ErrorCodeRow, PlanRow } from "./types";

const n = (v: number) => v.toLocaleString("en-US");
const th = "px-3 py-2";

/** The `x-plans` extension: limits per plan. */
export function PlansTable({ plans }: { plans: PlanRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-labelledby="ref-plans">
        <thead className="bg-slate-100">
          <tr>
            <th scope="col" className={th}>Plan</th>
            <th scope="col" className={th}>Tier (B name)</th>
            <th scope="col" className={`${th} text-right`}>A per minute</th>
            <th scope="col" className={`${th} text-right`}>A per month</th>
            <th scope="col" className={`${th} text-right`}>B per minute</th>
            <th scope="col" className={`${th} text-right`}>B per day</th>
            <th scope="col" className={`${th} text-right`}>B max body (bytes)</th>
            <th scope="col" className={th}>Webhooks</th>
            <th scope="col" className={th}>Live data</th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr key={p.plan} className="border-t border-slate-200">
              <th scope="row" className={`${th} font-medium`}>{p.plan}</th>
              <td className={`${th} whitespace-nowrap`}>{p.tier}</td>
              <td className={`${th} text-right tabular-nums`}>{n(p.familyA.perMinute)}</td>
              <td className={`${th} text-right tabular-nums`}>{n(p.familyA.perMonth)}</td>
              <td className={`${th} text-right tabular-nums`}>{n(p.familyB.perMinute)}</td>
              <td className={`${th} text-right tabular-nums`}>{n(p.familyB.perDay)}</td>
              <td className={`${th} text-right tabular-nums`}>{n(p.familyB.maxPayloadBytes)}</td>
              <td className={th}>{p.familyB.webhooks ? "Yes" : "No"}</td>
              <td className={`${th} whitespace-nowrap`}>{p.liveData}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The `x-error-codes` extension: every error code with its HTTP status. */
export function ErrorCodesTable({ codes }: { codes: ErrorCodeRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-labelledby="ref-errors">
        <thead className="bg-slate-100">
          <tr>
            <th scope="col" className={th}>Code</th>
            <th scope="col" className={th}>HTTP status</th>
            <th scope="col" className={th}>Meaning</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((c) => (
            <tr key={c.code} className="border-t border-slate-200 align-top">
              <th scope="row" className={`${th} font-mono font-normal`}>{c.code}</th>
              <td className={`${th} tabular-nums`}>{c.status}</td>
              <td className={th}><InlineText text={c.description} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The `x-definitions` extension: groups of term → definition. */
export function Definitions({ groups }: { groups: Record<string, Record<string, string>> }) {
  const entries = Object.entries(groups);
  if (entries.length === 0) return <p className="text-sm text-slate-700">No metric definitions are published yet.</p>;
  return (
    <div className="space-y-6">
      {entries.map(([group, terms]) => (
        <section key={group} aria-labelledby={`def-${group}`}>
          <h3 id={`def-${group}`} className="mb-2 text-lg font-semibold">{group}</h3>
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(10rem,max-content)_1fr]">
            {Object.entries(terms).map(([term, def]) => (
              <div key={term} className="contents">
                <dt className="font-mono font-semibold">{term}</dt>
                <dd className="text-slate-800"><InlineText text={def} /></dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}
