import type { Metadata } from "next";
import Link from "next/link";
import { ScalarReference } from "@/components/scalar-reference";
import { GUIDES } from "@/components/docs/guides";

export const metadata: Metadata = {
  title: "API reference",
  description: "Endpoints, parameters, responses, plans and error codes of the Options Research API.",
};

export default function DocsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">API reference</h1>
      <nav aria-label="Guides" className="rounded-lg border border-line p-4">
        <h2 className="mb-2 text-lg font-semibold">Guides</h2>
        <ul className="grid gap-1 sm:grid-cols-2">
          {GUIDES.map((g) => (
            <li key={g.slug}>
              <Link href={`/docs/guides/${g.slug}`}>{g.title}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="text-muted">
        The reference below is rendered from the OpenAPI 3.1 document at{" "}
        <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>, generated from the same schemas that validate requests.
      </p>
      <ScalarReference />
    </div>
  );
}
