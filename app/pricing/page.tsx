import type { Metadata } from "next";
import Link from "next/link";
import { FamilyATable, FamilyBTable, PlansUnavailable, liveDataLabel, loadPlans } from "@/components/plan-limits-table";
import type { PlanRow } from "@/lib/domain/plans";

export const metadata: Metadata = {
  title: "Pricing",
  description: "Plans of the Options Research API and what each includes.",
};

const fmt = (n: number) => n.toLocaleString("en-US");

function includes(p: PlanRow): string[] {
  const keys = ["svc_test_ keys (demo data)"];
  if (p.liveKeyStyles.includes("live")) keys.push("svc_live_ keys");
  if (p.liveKeyStyles.includes("sk")) keys.push("svc_sk_live_ keys (after an approved access request)");
  return [
    `Keys: ${keys.join(", ")}`,
    `Live data: ${liveDataLabel(p)}`,
    `Family A: ${fmt(p.aPerMinute)} per minute, ${fmt(p.aPerMonth)} per month`,
    `Family B: ${fmt(p.bPerMinute)} per minute, ${fmt(p.bPerDay)} per day`,
    `Webhook alerts: ${p.webhooks ? "yes" : "no"}`,
  ];
}

export default async function PricingPage() {
  const plans = await loadPlans();
  return (
    <div className="space-y-10">
      <section aria-labelledby="pricing-heading" className="space-y-3">
        <h1 id="pricing-heading" className="text-3xl font-bold tracking-tight">
          Pricing
        </h1>
        <p className="max-w-3xl text-slate-700">
          Four plans; limits are per key and come from the calling key&apos;s plan (test keys always use Sandbox).
          Change plans yourself on the <Link href="/dashboard/plan">Plan page</Link>: the change applies to every key at
          once. Payment collection is not part of this service yet.
        </p>
      </section>
      {!plans ? (
        <PlansUnavailable />
      ) : (
        <>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Plans">
            {plans.map((p) => (
              <li key={p.id} className="space-y-2 rounded-lg border border-slate-200 p-4">
                <h2 className="text-xl font-semibold">{p.nameA}</h2>
                <p className="text-sm text-slate-700">{p.nameB}</p>
                <ul className="list-disc space-y-1 pl-5 text-sm">
                  {includes(p).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          <section aria-labelledby="limits-heading" className="space-y-6">
            <h2 id="limits-heading" className="text-2xl font-semibold">
              Limits by route family
            </h2>
            <FamilyATable plans={plans} />
            <FamilyBTable plans={plans} />
            <p className="text-sm text-slate-700">
              Over the per-minute limit: 429 <code>rate_limit_exceeded</code> with <code>Retry-After</code>. Quota
              spent: 403 <code>plan_limit_exceeded</code>. Only successful (2xx) calls use quota. See{" "}
              <Link href="/docs/guides/limits">Limits</Link>.
            </p>
          </section>
        </>
      )}
      <p>
        <Link href="/signup">Create a free account</Link> to get a test key.
      </p>
    </div>
  );
}
