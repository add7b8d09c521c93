import Link from "next/link";
import { baseUrl } from "@/components/base-url";
import { EndpointList } from "@/components/endpoint-list";
import { PlanLimitsTable } from "@/components/plan-limits-table";
import { buttonClass } from "@/components/ui/button";
import { Container } from "@/components/ui/page";
import { allRoutes } from "@/lib/api/routes";

const FEATURES = [
  ["Research summaries", "Per-ticker summaries, signal scores and no-trade analysis from our own models."],
  ["Options flow", "Unusual options-flow events, ranked and labelled, never raw quotes."],
  ["Market context", "Yield curve, market sentiment and watchlist rankings in one call each."],
  ["Webhook alerts", "IV-rank, IV-change and no-trade alerts, signed per Standard Webhooks."],
] as const;

/** Sign up, export the key and call an endpoint: the curl command to copy. */
function QuickStart({ curl }: { curl: string }) {
  return (
    <section aria-labelledby="quick-start-heading" className="min-w-0 space-y-3">
      <h2 id="quick-start-heading" className="text-sm font-semibold text-muted">
        Quick start
      </h2>
      <ol className="list-decimal space-y-1 pl-5 text-sm text-muted">
        <li>
          <Link href="/signup" className="underline">
            Sign up
          </Link>{" "}
          and create a test key (<code>svc_test_…</code>) on the Keys page.
        </li>
        <li>
          Put it in a shell variable: <code>export API_KEY=svc_test_…</code>
        </li>
        <li>Call an endpoint:</li>
      </ol>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard user can scroll a long command
        tabIndex={0}
        className="rounded-lg bg-code-bg p-4 text-sm break-all whitespace-pre-wrap text-code-fg"
        role="figure"
        aria-label="curl example"
      >
        <code>{curl}</code>
      </pre>
      <p className="text-xs text-muted">
        The key may also go in <code>x-api-key</code> or <code>X-Service-Key</code>.
      </p>
    </section>
  );
}

export default async function HomePage() {
  const CURL = `curl -H "Authorization: Bearer $API_KEY" \\\n  ${await baseUrl()}/api/v1/ticker/AAPL/summary`;
  return (
    <Container className="space-y-16">
      <section aria-labelledby="intro-heading" className="grid items-center gap-10 lg:grid-cols-[1.1fr_1fr]">
        <div className="space-y-5">
          <p className="text-sm font-medium text-link">Options-market analytics API</p>
          <h1 id="intro-heading" className="text-4xl font-semibold tracking-tight">
            Options Research API
          </h1>
          <p className="max-w-xl text-lg text-muted">
            Research summaries, signal scores, options-flow events, no-trade analysis, yield curve and market sentiment
            over one HTTPS JSON API, with webhook alerts. Every response carries our own derived analytics.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link href="/signup" className={buttonClass("primary", "md", "h-10 px-5 text-base")}>
              Get a free test key
            </Link>
            <Link href="/docs" className={buttonClass("secondary", "md", "h-10 px-5 text-base")}>
              Read the reference
            </Link>
          </div>
          <p className="text-sm text-muted">
            Sandbox (Free Sandbox) plan on demo data · no card · a key in under a minute.
          </p>
        </div>
        <QuickStart curl={CURL} />
      </section>

      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="What the API offers">
        {FEATURES.map(([title, text]) => (
          <li key={title} className="rounded-lg border border-line bg-surface p-4">
            <p className="font-medium">{title}</p>
            <p className="mt-1 text-sm text-muted">{text}</p>
          </li>
        ))}
      </ul>

      <section aria-labelledby="endpoints-heading" className="space-y-3">
        <h2 id="endpoints-heading" className="text-xl font-semibold">
          Endpoints
        </h2>
        <p className="max-w-3xl text-sm text-muted">
          Every key works on every route under <code>/api/v1</code>. Keys start with <code>svc_test_</code> (free, demo
          data), <code>svc_live_</code> (Pro and Enterprise) or <code>svc_sk_live_</code> (after an approved access
          request).
        </p>
        <EndpointList routes={allRoutes} />
        <p>
          <Link href="/docs">Read the full API reference</Link> for parameters, responses and error codes.
        </p>
      </section>

      <section aria-labelledby="plans-heading" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="plans-heading" className="text-xl font-semibold">
            Plan limits
          </h2>
          <Link href="/pricing" className="text-sm">
            Compare plans
          </Link>
        </div>
        <PlanLimitsTable />
      </section>
    </Container>
  );
}
