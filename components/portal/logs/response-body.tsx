"use client";

import type { RequestLogEntry } from "@/lib/shared/usage-types";

/** The `error.message` of an error body, both families' shape. */
export function errorMessageOf(body: unknown): string | null {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" ? message : null;
}

/** The body an error call answered, as the caller got it; success bodies are not kept. */
export function ResponseBody({ entry }: { entry: RequestLogEntry }) {
  let note: string;
  if (entry.errorBody !== null)
    note =
      "As the caller got it (values shaped like a key are replaced by REDACTED). A caller that asked for application/problem+json got the same fields as problem details.";
  else if (entry.status >= 200 && entry.status < 300)
    note = "Success bodies are not kept: repeat the call (Copy as curl) to see one.";
  else note = "Not recorded: this call was logged before error bodies were kept.";
  return (
    <section aria-labelledby="detail-body-title" className="space-y-2">
      <h3 id="detail-body-title" className="text-sm font-semibold">
        Response body
      </h3>
      {entry.errorBody !== null ? (
        <pre
          data-testid="detail-body"
          aria-labelledby="detail-body-title"
          tabIndex={0}
          className="max-h-80 overflow-auto rounded-md bg-code-bg p-3 text-xs break-all whitespace-pre-wrap text-code-fg"
        >
          {JSON.stringify(entry.errorBody, null, 2)}
        </pre>
      ) : null}
      <p className="text-xs text-muted">{note}</p>
    </section>
  );
}
