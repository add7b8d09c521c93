import type { Metadata } from "next";
import { DisclaimerNote } from "@/components/disclaimer-note";
import { ScalarReference } from "@/components/scalar-reference";
import { QuickStartCode } from "@/components/docs/quick-start-code";
import Link from "next/link";

export const metadata: Metadata = {
  title: "API reference",
  description: "Endpoints, parameters, responses, plans and error codes of the Options Research API.",
};

export default function DocsPage() {
  return (
    <div className="min-w-0">
      <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1 px-4 pt-6 pb-2 sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight">API reference</h1>
        <p className="text-sm text-muted">
          Rendered from the OpenAPI 3.1 document at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>, built from
          the schemas that validate requests. Search with <kbd>Ctrl</kbd> <kbd>K</kbd>.
        </p>
      </div>
      <div className="px-4 sm:px-6">
        <DisclaimerNote />
      </div>
      {/* One line until opened, so the reference starts on the first screen (1280 × 800); the guide has it in full. */}
      <section aria-label="Quick start" className="mx-4 my-2 rounded-lg border border-line bg-surface sm:mx-6">
        <details>
          <summary className="cursor-pointer px-4 py-2.5 text-sm">
            <span className="font-semibold">Quick start</span>
            <span className="text-muted">
              {" "}
              · a free test key, <code>export API_KEY=svc_test_…</code>, the first call in curl, TypeScript or Python
            </span>
          </summary>
          <div className="grid gap-4 border-t border-line p-4 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
            <div className="space-y-2 text-sm">
              <ol className="list-decimal space-y-1 pl-5 text-muted">
                <li>
                  Create a free test key on <Link href="/dashboard/keys">API keys</Link> (or{" "}
                  <Link href="/signup">sign up</Link> first).
                </li>
                <li>
                  <code>export API_KEY=svc_test_…</code>
                </li>
                <li>
                  Call an endpoint with curl, the TypeScript client (<code>@options-research/client</code>) or the
                  Python client (<code>options_research</code>).
                </li>
              </ol>
              <p className="text-muted">
                More in the <Link href="/docs/guides/quick-start">quick start guide</Link>; every route can be tried in
                the <Link href="/dashboard/playground">playground</Link>.
              </p>
            </div>
            <QuickStartCode />
          </div>
        </details>
      </section>
      <ScalarReference />
    </div>
  );
}
