import type { RouteDef } from "@/lib/api/route";

const METHOD_STYLE: Record<string, string> = {
  GET: "bg-ok-soft text-ok",
  POST: "bg-info-soft text-info",
  DELETE: "bg-bad-soft text-bad",
};

/** Method + path + summary for each route of the live route table (not a copy). */
export function EndpointList({ routes }: { routes: RouteDef[] }) {
  return (
    <ul className="divide-y divide-line rounded-lg border border-line bg-surface" aria-label="Endpoints">
      {routes.map((r) => (
        <li key={r.id} className="flex flex-col gap-1 px-4 py-2.5 md:flex-row md:items-baseline md:gap-4">
          <span className="flex min-w-0 shrink-0 items-baseline gap-2 md:w-[28rem]">
            <span
              className={`w-14 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold ${METHOD_STYLE[r.method] ?? ""}`}
            >
              {r.method}
            </span>
            <code className="bg-transparent px-0 text-sm break-all">{r.path}</code>
          </span>
          <span className="text-sm text-muted">
            {r.summary}
            {r.authenticated ? "" : <span className="ml-2 text-xs">(no key needed)</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
