import type { RouteDef } from "@/lib/api/route";

const METHOD_STYLE: Record<string, string> = {
  GET: "bg-emerald-100 text-emerald-900",
  POST: "bg-blue-100 text-blue-900",
  DELETE: "bg-red-100 text-red-900",
};

/** Method + path + summary for each route of the live route table (not a copy). */
export function EndpointList({ routes }: { routes: RouteDef[] }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Endpoints">
      {routes.map((r) => (
        <li key={r.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:gap-4">
          <span className="flex shrink-0 items-baseline gap-2 sm:w-[26rem]">
            <span
              className={`w-16 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold ${METHOD_STYLE[r.method] ?? ""}`}
            >
              {r.method}
            </span>
            <code className="break-all bg-transparent px-0 text-sm">{r.path}</code>
          </span>
          <span className="text-sm text-slate-700">
            {r.summary}
            <span className="ml-2 text-xs text-slate-600">
              (family {r.family}
              {r.authenticated ? "" : ", no key"})
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}
