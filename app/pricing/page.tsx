import type { Metadata } from "next";
import Link from "next/link";
import { FamilyATable, FamilyBTable, PlansUnavailable, liveDataLabel, loadPlans } from "@/components/plan-limits-table";
import { buttonClass } from "@/components/ui/button";
import { Container } from "@/components/ui/page";
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

/** The free plan starts at sign-up; the others are chosen on the Plan page (sign-in first when signed out). */
function action(p: PlanRow, index: number) {
  return index === 0
    ? { href: "/signup", label: "Get a free test key", primary: true }
    : { href: "/dashboard/plan", label: `Choose ${p.nameA}`, primary: false };
}

export default async function PricingPage() {
  const plans = await loadPlans();
  return (
    <Container className="space-y-10">
      <section aria-labelledby="pricing-heading" className="space-y-2">
        <h1 id="pricing-heading" className="text-3xl font-semibold tracking-tight">
          Pricing
        </h1>
        <p className="max-w-3xl text-muted">
          Four plans; limits are per key and come from the calling key&apos;s plan (test keys always use Sandbox).
          Change plans yourself on the Plan page of your dashboard: the change applies to every key at once. Payment
          collection is not part of this service yet.
        </p>
      </section>
      {!plans ? (
        <PlansUnavailable />
      ) : (
        <>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Plans">
            {plans.map((p, i) => {
              const a = action(p, i);
              return (
                <li key={p.id} className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-5">
                  <h2 className="text-lg font-semibold">{p.nameA}</h2>
                  <ul className="flex-1 space-y-1.5 text-sm text-muted">
                    {includes(p).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                  <Link href={a.href} className={buttonClass(a.primary ? "primary" : "secondary", "md", "w-full")}>
                    {a.label}
                  </Link>
                </li>
              );
            })}
          </ul>
          <section aria-labelledby="limits-heading" className="space-y-6">
            <h2 id="limits-heading" className="text-xl font-semibold">
              Limits by route family
            </h2>
            <FamilyATable plans={plans} />
            <FamilyBTable plans={plans} />
            <p className="text-sm text-muted">
              Over the per-minute limit: 429 <code>rate_limit_exceeded</code> with <code>Retry-After</code>. Quota
              spent: 403 <code>plan_limit_exceeded</code>. Only successful (2xx) calls use quota. See{" "}
              <Link href="/docs/guides/limits">Limits</Link>.
            </p>
          </section>
        </>
      )}
    </Container>
  );
}
