"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState, type FormEvent } from "react";
import type { PlaygroundResponse } from "@/lib/portal/playground-call";
import { bodyValue, curlCommand, requestPath, type PlaygroundOperation } from "@/lib/portal/playground-operations";
import { portalFetch } from "@/components/portal/portal-fetch";
import { ParamField } from "./param-field";
import { ResponseView } from "./response-view";

type Values = Record<string, string | string[]>;

const DEFAULT_OPERATION = "GET /api/v1/ticker/{symbol}/summary";

const initialValues = (op: PlaygroundOperation): Values =>
  Object.fromEntries(
    op.fields.map((f) => [
      `${f.in}:${f.name}`,
      f.kind === "enum-list" ? [] : (f.example ?? (f.kind === "enum" && f.required ? f.options![0] : "")),
    ]),
  );

function toRequest(op: PlaygroundOperation, values: Values) {
  const pick = (where: string) =>
    Object.fromEntries(
      op.fields.filter((f) => f.in === where).map((f) => [f.name, String(values[`${where}:${f.name}`] ?? "")]),
    );
  const body = op.hasBody
    ? Object.fromEntries(
        op.fields
          .filter((f) => f.in === "body")
          .flatMap((f) => {
            const v = bodyValue(f, values[`body:${f.name}`] ?? "");
            return v === undefined ? [] : [[f.name, v]];
          }),
      )
    : undefined;
  return { operation: op.id, params: pick("path"), query: pick("query"), body };
}

export function Playground({ operations, isOwner }: { operations: PlaygroundOperation[]; isOwner: boolean }) {
  const [opId, setOpId] = useState((operations.find((o) => o.id === DEFAULT_OPERATION) ?? operations[0]).id);
  const op = operations.find((o) => o.id === opId)!;
  const [values, setValues] = useState<Values>(() => initialValues(op));
  const [keyMode, setKeyMode] = useState<"playground" | "pasted">("playground");
  const [pasted, setPasted] = useState("");
  const queryClient = useQueryClient();
  const keyInfo = useQuery({
    queryKey: ["portal", "playground-key"],
    queryFn: () => portalFetch<{ keyId: string; prefix: string } | null>("/api/portal/playground/key"),
  });
  const call = useMutation({
    mutationFn: (body: unknown) =>
      portalFetch<PlaygroundResponse>("/api/portal/playground/call", { method: "POST", body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["portal"] }),
  });
  const req = useMemo(() => toRequest(op, values), [op, values]);
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const curl = curlCommand(origin, op, requestPath(op.path, req.params, req.query), req.body);

  const choose = (id: string) => {
    const next = operations.find((o) => o.id === id)!;
    setOpId(id);
    setValues(initialValues(next));
    call.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    call.mutate({ ...req, ...(keyMode === "pasted" ? { key: pasted.trim() } : {}) });
  };
  const families = (["A", "B"] as const).map((f) => ({ family: f, ops: operations.filter((o) => o.family === f) }));
  const playgroundKeyLabel = keyInfo.data
    ? `My playground test key (${keyInfo.data.prefix}…)`
    : isOwner
      ? "My playground test key (created on the first call)"
      : "My playground test key (the owner creates it on first use)";

  return (
    <div className="space-y-6">
      <form onSubmit={submit} className="space-y-5 rounded-lg border border-line p-4" aria-label="Playground request">
        <div className="space-y-1">
          <label htmlFor="pg-operation" className="block text-sm font-medium">
            Route
          </label>
          <select
            id="pg-operation"
            value={opId}
            onChange={(e) => choose(e.target.value)}
            className="w-full rounded border border-line-strong px-2 py-1"
          >
            {families.map(({ family, ops }) => (
              <optgroup key={family} label={`Family ${family}`}>
                {ops.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.id} — {o.summary}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        {op.fields.length > 0 ? (
          <div className="grid gap-4 md:grid-cols-2">
            {op.fields.map((f) => (
              <ParamField
                key={`${f.in}:${f.name}`}
                field={f}
                value={values[`${f.in}:${f.name}`] ?? ""}
                onChange={(v) => setValues({ ...values, [`${f.in}:${f.name}`]: v })}
              />
            ))}
          </div>
        ) : (
          <p className="text-sm text-muted">This route takes no parameters.</p>
        )}
        {op.authenticated ? (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Key</legend>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="pg-key"
                checked={keyMode === "playground"}
                onChange={() => setKeyMode("playground")}
              />{" "}
              {playgroundKeyLabel}
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" name="pg-key" checked={keyMode === "pasted"} onChange={() => setKeyMode("pasted")} />{" "}
              Paste a key
            </label>
            {keyMode === "pasted" && (
              <div className="space-y-1 pl-6">
                <label htmlFor="pg-pasted" className="block text-sm font-medium">
                  API key
                </label>
                <input
                  id="pg-pasted"
                  type="password"
                  autoComplete="off"
                  value={pasted}
                  onChange={(e) => setPasted(e.target.value)}
                  required
                  className="w-full rounded border border-line-strong px-2 py-1 font-mono"
                />
              </div>
            )}
          </fieldset>
        ) : (
          <p className="text-sm text-muted">This route needs no key and is never metered.</p>
        )}
        <button
          type="submit"
          disabled={call.isPending}
          className="rounded bg-accent px-4 py-2 font-medium text-accent-fg disabled:opacity-60"
        >
          {call.isPending ? "Sending…" : "Send request"}
        </button>
        {call.isPending && (
          <p role="status" className="text-sm">
            Sending the request…
          </p>
        )}
        {call.isError && (
          <p role="alert" className="rounded border border-bad/40 bg-bad-soft p-2 text-sm text-bad">
            {call.error.message}
          </p>
        )}
      </form>
      {call.data && <ResponseView result={call.data} curl={curl} />}
    </div>
  );
}
