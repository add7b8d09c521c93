import { RichText, InlineText } from "./rich-text";
import type { Operation } from "./types";

/** "`a`: x. `b`: y." → one line per error code. */
const splitCodes = (text: string) => text.split(/ (?=`[a-z_]+`: )/);

/** One path + method, collapsed by default; <details>/<summary> is keyboard operable (Enter / Space). */
export function OperationDetails({ method, path, op }: { method: string; path: string; op: Operation }) {
  const params = op.parameters ?? [];
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const responses = Object.entries(op.responses ?? {});
  return (
    <details className="group rounded-md border border-slate-200 open:shadow-sm">
      <summary className="flex cursor-pointer list-none [&::-webkit-details-marker]:hidden flex-wrap items-baseline gap-3 rounded-md px-4 py-3 hover:bg-slate-50">
        <span aria-hidden="true" className="inline-block w-3 text-slate-500 transition-transform group-open:rotate-90">▸</span>
        <span className="w-16 rounded bg-slate-800 px-1.5 py-0.5 text-center font-mono text-xs font-semibold uppercase text-white">
          {method}
        </span>
        <span className="font-mono text-sm">{path}</span>
        <span className="text-sm text-slate-700">{op.summary}</span>
      </summary>
      <div className="space-y-5 border-t border-slate-200 px-4 py-4">
        {op.description ? <RichText text={op.description} headingLevel={4} /> : null}
        <p className="text-sm text-slate-700">
          {op.security && op.security.length === 0 ? "No API key needed." : "Requires an API key (Bearer, x-api-key or X-Service-Key)."}
        </p>
        <section>
          <h4 className="mb-2 font-semibold">Parameters</h4>
          {params.length === 0 ? (
            <p className="text-sm text-slate-700">None.</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-100">
                <tr>
                  <th scope="col" className="px-2 py-1">Name</th>
                  <th scope="col" className="px-2 py-1">In</th>
                  <th scope="col" className="px-2 py-1">Required</th>
                  <th scope="col" className="px-2 py-1">Description</th>
                </tr>
              </thead>
              <tbody>
                {params.map((p) => (
                  <tr key={`${p.in}:${p.name}`} className="border-t border-slate-200 align-top">
                    <th scope="row" className="px-2 py-1 font-mono font-normal">{p.name}</th>
                    <td className="px-2 py-1">{p.in}</td>
                    <td className="px-2 py-1">{p.required ? "Yes" : "No"}</td>
                    <td className="px-2 py-1">{p.description ? <InlineText text={p.description} /> : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        {body !== undefined ? (
          <section>
            <h4 className="mb-2 font-semibold">Request body (application/json{op.requestBody?.required ? ", required" : ""})</h4>
            <pre className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100" tabIndex={0} aria-label="Request body schema">
              <code>{JSON.stringify(body, null, 2)}</code>
            </pre>
          </section>
        ) : null}
        <section>
          <h4 className="mb-2 font-semibold">Responses</h4>
          <dl className="space-y-2 text-sm">
            {responses.map(([status, r]) => (
              <div key={status} className="flex gap-3">
                <dt className="w-12 shrink-0 font-mono font-semibold">{status}</dt>
                <dd className="space-y-1 text-slate-800">
                  {splitCodes(r.description ?? "—").map((line) => (
                    <p key={line}><InlineText text={line} /></p>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </details>
  );
}
