"use client";

import { useQuery } from "@tanstack/react-query";
import { DisclaimerNote } from "./disclaimer-note";
import { Definitions, ErrorCodesTable, PlansTable } from "./reference/extension-tables";
import { OperationDetails } from "./reference/operation";
import { RichText } from "./reference/rich-text";
import { HTTP_METHODS, type OpenApiDoc } from "./reference/types";

async function fetchOpenApi(): Promise<OpenApiDoc> {
  const res = await fetch("/api/v1/openapi.json", { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`The API reference could not be loaded (HTTP ${res.status}).`);
  return (await res.json()) as OpenApiDoc;
}

const h2 = "text-2xl font-semibold";

/** The human-readable API reference, rendered from GET /api/v1/openapi.json. */
export function ApiReference() {
  const query = useQuery({ queryKey: ["openapi"], queryFn: fetchOpenApi, retry: false });

  if (query.isPending) {
    return (
      <p role="status" className="animate-pulse text-slate-700">
        Loading the API reference…
      </p>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
        <p className="font-semibold">The API reference could not be loaded.</p>
        <p className="text-sm">{query.error.message}</p>
        <button
          type="button"
          onClick={() => query.refetch()}
          disabled={query.isFetching}
          className="rounded bg-red-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-900 disabled:opacity-60"
        >
          {query.isFetching ? "Retrying…" : "Retry"}
        </button>
      </div>
    );
  }

  const doc = query.data;
  const paths = Object.entries(doc.paths);
  return (
    <div className="space-y-12">
      <p className="text-sm text-slate-700">
        {doc.info.title}, version {doc.info.version} (OpenAPI {doc.openapi}).{" "}
        <a href="/api/v1/openapi.json">Download the OpenAPI document</a>.
      </p>
      {doc.info.description ? (
        <section aria-labelledby="ref-overview" className="space-y-3">
          <h2 id="ref-overview" className={h2}>Overview</h2>
          <RichText text={doc.info.description} />
        </section>
      ) : null}

      <section aria-labelledby="ref-endpoints" className="space-y-4">
        <h2 id="ref-endpoints" className={h2}>Endpoints</h2>
        <DisclaimerNote />
        <p className="text-sm text-slate-700">Select an operation to expand its parameters and responses.</p>
        {paths.map(([path, item]) => (
          <section key={path} aria-labelledby={`path-${path}`} className="space-y-2">
            <h3 id={`path-${path}`} className="font-mono text-base font-semibold break-all">{path}</h3>
            {HTTP_METHODS.filter((m) => item[m]).map((m) => (
              <OperationDetails key={m} method={m} path={path} op={item[m]} />
            ))}
          </section>
        ))}
      </section>

      <section aria-labelledby="ref-plans" className="space-y-3">
        <h2 id="ref-plans" className={h2}>Plans</h2>
        <PlansTable plans={doc["x-plans"] ?? []} />
      </section>

      <section aria-labelledby="ref-errors" className="space-y-3">
        <h2 id="ref-errors" className={h2}>Error codes</h2>
        <ErrorCodesTable codes={doc["x-error-codes"] ?? []} />
      </section>

      <section aria-labelledby="ref-definitions" className="space-y-3">
        <h2 id="ref-definitions" className={h2}>Definitions</h2>
        <Definitions groups={doc["x-definitions"] ?? {}} />
      </section>
    </div>
  );
}
