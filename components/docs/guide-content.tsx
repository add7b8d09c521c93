import Link from "next/link";
import type { ReactNode } from "react";
import { DISCLAIMER } from "@/lib/contract/disclaimer";
import { ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from "@/lib/api/errors";
import { metricDefinitions } from "@/lib/api/reference-notes";
import { PlanLimitsTable } from "@/components/plan-limits-table";
import { DisclaimerNote } from "@/components/disclaimer-note";
import type { GuideSlug } from "./guides";
import { ScrollRegion } from "@/components/scroll-region";
import { QuickStartCode } from "./quick-start-code";

const Pre = ({ label, children }: { label: string; children: string }) => (
  <pre
    tabIndex={0}
    aria-label={label}
    className="rounded-md bg-code-bg p-4 text-sm break-all whitespace-pre-wrap text-code-fg"
  >
    <code>{children}</code>
  </pre>
);
const H2 = ({ children }: { children: ReactNode }) => <h2 className="pt-2 text-xl font-semibold">{children}</h2>;

function QuickStart() {
  return (
    <>
      <ol className="list-decimal space-y-2 pl-6">
        <li>
          <Link href="/signup">Create an account</Link> (e-mail and password; accept the terms of use).
        </li>
        <li>
          On <Link href="/dashboard/keys">API keys</Link>, create a <strong>Test</strong> key and copy it: it is shown
          once.
        </li>
        <li>
          Call an endpoint with it, or try every route in the <Link href="/dashboard/playground">Playground</Link> with
          the same key: choose it there by name, no need to paste it or to make another.
        </li>
        <li>
          Watch the call arrive in <Link href="/dashboard/usage">Usage</Link>, counted exactly as the limits count it,
          and in <Link href="/dashboard/logs">Logs</Link>, with the body of any error.
        </li>
      </ol>
      <p>
        Put the key in an environment variable (<code>export API_KEY=svc_test_…</code>), then call an endpoint with curl
        or one of the client libraries: TypeScript (<code>@options-research/client</code>, in{" "}
        <code>clients/typescript</code>) or Python (<code>options_research</code>, in <code>clients/python</code>).
      </p>
      <QuickStartCode />
      <p>
        Test keys are free, use the Sandbox plan and always read the service&apos;s synthetic demo market (
        <code>dataLabel: demo</code>).
      </p>
    </>
  );
}

function Authentication() {
  return (
    <>
      <p>
        Send one key in any one of these headers; two different keys in one request are a 400{" "}
        <code>invalid_request</code>.
      </p>
      <Pre label="key headers">{`Authorization: Bearer svc_test_…\nx-api-key: svc_test_…\nX-Service-Key: svc_test_…`}</Pre>
      <ul className="list-disc space-y-1 pl-6">
        <li>
          <code>svc_test_…</code>: created on the API keys page; free; demo data; Sandbox limits.
        </li>
        <li>
          <code>svc_live_…</code>: created on the API keys page; needs the Pro or Enterprise plan.
        </li>
        <li>
          <code>svc_sk_live_…</code>: issued when an API access request is approved; needs any paid plan.
        </li>
      </ul>
      <p>
        A key is its prefix and 30 characters: 24 random base62 characters (about 142 bits) and a checksum. The service
        stores only a SHA-256 digest, so a lost key cannot be shown again: roll it.
      </p>
      <H2>Order of checks</H2>
      <ol className="list-decimal space-y-1 pl-6">
        <li>
          No key: 401 <code>missing_api_key</code>.
        </li>
        <li>
          Malformed, unknown or revoked key: 401 <code>invalid_api_key</code>.
        </li>
        <li>
          Deactivated key or account: 403 <code>inactive_key</code>.
        </li>
        <li>
          Live key without the plan it needs: 403 <code>subscription_required</code>.
        </li>
      </ol>
      <p>Revoking or deactivating a key takes effect on every server within 5 seconds.</p>
    </>
  );
}

function Errors() {
  return (
    <>
      <p>
        Family A error bodies are exactly <code>{`{"error":{"code","message"}}`}</code>. Family B adds its envelope
        fields to every error.
      </p>
      <Pre label="family A error">{`{"error":{"code":"rate_limit_exceeded","message":"Per-minute limit of 10 requests reached; retry in 42 s."}}`}</Pre>
      <Pre label="family B error">{`{"error":{"code":"missing_api_key","message":"…"},"data":null,"disclaimer":"…","isMockData":false,"timestamp":"…","dataLabel":"none"}`}</Pre>
      <ScrollRegion label="Error codes">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="mb-2 text-left text-muted">Error codes</caption>
          <thead className="bg-subtle">
            <tr>
              <th scope="col" className="px-3 py-2">
                Code
              </th>
              <th scope="col" className="px-3 py-2">
                HTTP
              </th>
              <th scope="col" className="px-3 py-2">
                Meaning
              </th>
            </tr>
          </thead>
          <tbody>
            {(Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => (
              <tr key={code} className="border-t border-line align-top">
                <th scope="row" className="px-3 py-2 font-mono font-normal">
                  {code}
                </th>
                <td className="px-3 py-2">{ERROR_STATUS[code]}</td>
                <td className="px-3 py-2">{ERROR_DESCRIPTIONS[code]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p>
        Every response carries <code>X-Request-Id</code>; quote it to support. A 500 never includes a stack trace or
        internal detail.
      </p>
    </>
  );
}

function Limits() {
  return (
    <>
      <p>
        Limits belong to the calling key&apos;s plan (test keys: Sandbox; live keys: the account&apos;s plan) and are
        counted in fixed UTC windows: the per-minute burst per key, the quota per account and environment (all your test
        keys share one quota, all your live keys another, so a new key adds no quota).
      </p>
      <ul className="list-disc space-y-1 pl-6">
        <li>
          Order: credentials → body size (family B, 413 <code>payload_too_large</code>) → licensing (403{" "}
          <code>endpoint_pending_licensing</code>) → per-minute burst (429 <code>rate_limit_exceeded</code> with{" "}
          <code>Retry-After</code>) → quota (403 <code>plan_limit_exceeded</code>).
        </li>
        <li>Every request past the licensing gate uses one unit of the minute window; only 2xx responses use quota.</li>
        <li>Family A quota is per calendar month (UTC), family B quota per UTC day.</li>
        <li>
          Limits are exact: N concurrent calls against a limit L admit exactly min(N, L), on any number of servers.
        </li>
      </ul>
      <Pre label="rate-limit headers">{`RateLimit-Policy: "minute";q=10;w=60;pk=:3Cm9f0qLx2Ue:, "month";q=100;w=2592000;pk=:Qk1xv8cN0aZr:\nRateLimit: "minute";r=7;t=42;pk=:3Cm9f0qLx2Ue:, "month";r=93;t=1209600;pk=:Qk1xv8cN0aZr:\nX-RateLimit-Limit: 10\nX-RateLimit-Remaining: 7\nX-RateLimit-Reset: 1795425600`}</Pre>
      <p>
        <code>r</code> is what remains, <code>t</code> the seconds until the window resets; <code>X-RateLimit-*</code>{" "}
        describe the minute window (reset as Unix seconds). <code>pk</code> names the counter a window is counted in:
        the minute one differs per key, the month or day one is the same for all your keys of one environment.
      </p>
      <PlanLimitsTable aliases />
      <p>
        Your account&apos;s quota per environment, and each key&apos;s calls, are on the{" "}
        <Link href="/dashboard/usage">Usage</Link> page.
      </p>
    </>
  );
}

function DataLabels() {
  return (
    <>
      <ul className="list-disc space-y-1 pl-6">
        <li>
          <code>demo</code>: test keys. The service&apos;s own synthetic market; <code>meta.is_mock</code> /{" "}
          <code>isMockData</code> is true. Never treat it as a quote.
        </li>
        <li>
          <code>live</code>: live key, plan entitled to live data, newest data used at most 15 minutes old.
        </li>
        <li>
          <code>delayed-15m</code>: data 15 to 30 minutes old, or a plan entitled to delayed data (Starter), which is
          always served data at least 15 minutes old.
        </li>
        <li>
          <code>end-of-day</code>: older than 30 minutes.
        </li>
        <li>
          <code>none</code>: family B bodies that carry no market data (errors, health, webhook registrations) for live
          keys.
        </li>
      </ul>
      <p>
        Family A puts the label in <code>meta.data_freshness</code>; family B in <code>dataLabel</code>. Labels come
        from the as-of time of the data actually used, never a fixed value.
      </p>
      <H2>The disclaimer</H2>
      <p>
        Every body carries it (family A error bodies excepted). Show it to your end users wherever you show the
        analytics:
      </p>
      <blockquote className="border-l-4 border-warn/40 pl-4 italic">{DISCLAIMER}</blockquote>
      <DisclaimerNote />
    </>
  );
}

function Metrics() {
  const groups = Object.entries(metricDefinitions());
  return (
    <>
      <p>Definitions of every number the API returns, taken from the analytics code that computes them.</p>
      {groups.map(([group, defs]) => (
        <section key={group} aria-label={group} className="space-y-2">
          <h2 className="pt-2 text-xl font-semibold">{group}</h2>
          <dl className="space-y-2">
            {Object.entries(defs).map(([name, text]) => (
              <div key={name}>
                <dt className="font-mono text-sm font-semibold">{name}</dt>
                <dd className="pl-4 text-sm text-muted">{text}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </>
  );
}

export const GUIDE_CONTENT: Record<GuideSlug, () => ReactNode> = {
  "quick-start": QuickStart,
  authentication: Authentication,
  errors: Errors,
  limits: Limits,
  "data-labels": DataLabels,
  metrics: Metrics,
};
