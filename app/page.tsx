import Link from "next/link";
import { headers } from "next/headers";
import { EndpointList } from "@/components/endpoint-list";
import { PlanLimitsTable } from "@/components/plan-limits-table";
import { allRoutes } from "@/lib/api/routes";

/** The address this page was reached on, so the example works as pasted (behind a proxy, its forwarded host and scheme). */
async function baseUrl(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host")?.split(",")[0]?.trim() || h.get("host") || "localhost:3000";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() || "http";
  return `${proto === "https" ? "https" : "http"}://${host}`;
}

export default async function HomePage() {
  const CURL = `curl -H "Authorization: Bearer $API_KEY" \\\n  ${await baseUrl()}/api/v1/ticker/AAPL/summary`;
  return (
    <div className="space-y-12">
      <section aria-labelledby="intro-heading" className="space-y-4">
        <h1 id="intro-heading" className="text-3xl font-bold tracking-tight">
          Options Research API
        </h1>
        <p className="max-w-3xl text-lg text-slate-700">
          Derived options-market analytics over an HTTPS JSON API: research summaries, signal scores, options-flow
          events, no-trade analysis, yield curve, market sentiment and webhook alerts. Responses carry the
          service&apos;s own analytics, never raw quotes.
        </p>
        <p className="max-w-3xl text-slate-700">
          Two route families share the base URL <code>/api/v1</code>: <strong>family A</strong> (<code>/ticker</code>,{" "}
          <code>/signal-score</code>, <code>/options-flow</code>) and <strong>family B</strong> (<code>/ai</code>,{" "}
          <code>/data</code>, <code>/alerts</code>, <code>/outputs</code>, <code>/health</code>). Every key works on
          both families. Keys start with <code>svc_test_</code> (free, demo data), <code>svc_live_</code> (Pro and
          Enterprise) or <code>svc_sk_live_</code> (issued when an API access request is approved).
        </p>
      </section>

      <section aria-labelledby="quick-start-heading" className="space-y-3">
        <h2 id="quick-start-heading" className="text-2xl font-semibold">
          Quick start
        </h2>
        <ol className="list-decimal space-y-2 pl-6 text-slate-700">
          <li>
            Run <code>npm start</code>. It prepares the database, seeds a demo account and prints a demo test key (
            <code>svc_test_…</code>, Sandbox plan, demo data).
          </li>
          <li>
            Put the key in a shell variable: <code>export API_KEY=svc_test_…</code>
          </li>
          <li>
            Call an endpoint. The key may also go in <code>x-api-key</code> or <code>X-Service-Key</code>.
          </li>
        </ol>
        <pre
          tabIndex={0}
          className="overflow-x-auto rounded-md bg-slate-900 p-4 text-sm text-slate-100"
          aria-label="curl example"
        >
          <code>{CURL}</code>
        </pre>
      </section>

      <section aria-labelledby="endpoints-heading" className="space-y-3">
        <h2 id="endpoints-heading" className="text-2xl font-semibold">
          Endpoints
        </h2>
        <EndpointList routes={allRoutes} />
        <p>
          <Link href="/docs">Read the full API reference</Link> for parameters, responses and error codes.
        </p>
      </section>

      <section aria-labelledby="plans-heading" className="space-y-3">
        <h2 id="plans-heading" className="text-2xl font-semibold">
          Plan limits
        </h2>
        <PlanLimitsTable />
        <p>
          <Link href="/pricing">Compare plans</Link> · <Link href="/signup">Sign up for a free test key</Link> ·{" "}
          <Link href="/docs/guides/quick-start">Quick start guide</Link>
        </p>
      </section>
    </div>
  );
}
