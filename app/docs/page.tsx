import type { Metadata } from "next";
import { DisclaimerNote } from "@/components/disclaimer-note";
import { ScalarReference } from "@/components/scalar-reference";

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
      <div className="px-4 pb-2 sm:px-6">
        <DisclaimerNote />
      </div>
      <ScalarReference />
    </div>
  );
}
