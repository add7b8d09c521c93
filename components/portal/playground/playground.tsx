"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { KeyListItem } from "@/lib/domain/keys";
import { can, type Role } from "@/lib/shared/roles";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import type { PlaygroundResponse } from "@/lib/portal/playground-call";
import { bodyValue, sampleParams, type PlaygroundOperation } from "@/lib/portal/playground-operations";
import { codeSamples, operationIdFor } from "@/clients/snippets";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Button } from "@/components/ui/button";
import { CodeTabs } from "@/components/ui/code-tabs";
import { GROUP_ORDER, groupOf } from "./groups";
import { OperationsNav } from "./operations-nav";
import { ParamField } from "./param-field";
import { atTheMoney, usePickers } from "./pickers";
import { ResponseView } from "./response-view";
import { KeyPicker } from "./key-picker";
import { useKeyChoice } from "./own-keys";
import { STREAM_OPERATION } from "@/lib/portal/stream-list";
import { StreamList, useLiveStream } from "./stream-view";

type Values = Record<string, string | string[]>;

const DEFAULT_OPERATION = "GET /api/v1/ticker/{symbol}/summary";

/** Valid first values where the document gives none (webhook registration: one event and the threshold it needs). */
const EXAMPLES: Record<string, Record<string, string | string[]>> = {
  "POST /api/v1/alerts": {
    "body:url": "https://example.com/hooks",
    "body:events": ["iv_rank.crossed_above"],
    "body:ivRankAbove": "70",
  },
  [STREAM_OPERATION]: { "query:events": "flow.sweep,flow.block,flow.unusual" },
};

const initialValues = (op: PlaygroundOperation): Values =>
  Object.fromEntries(
    op.fields.map((f) => {
      const k = `${f.in}:${f.name}`;
      const given = EXAMPLES[op.id]?.[k];
      if (given !== undefined) return [k, given];
      if (f.kind === "enum-list") return [k, []];
      return [k, f.example ?? (f.kind === "enum" && f.required ? (f.options?.[0] ?? "") : "")];
    }),
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

export function Playground({
  operations,
  role,
  initialKeys,
  initialKeyId,
}: {
  operations: PlaygroundOperation[];
  role: Role;
  /** The account's keys as the page was rendered (all of them: the picker keeps those the role may use). */
  initialKeys: KeyListItem[];
  /** A key to start with (`?key=<id>`, from the Keys page), when it is one the member may use. */
  initialKeyId?: string;
}) {
  const first = operations.find((o) => o.id === DEFAULT_OPERATION) ?? operations[0];
  const [opId, setOpId] = useState(first.id);
  const op = operations.find((o) => o.id === opId) ?? first;
  const [values, setValues] = useState<Values>(() => initialValues(op));
  const keyChoice = useKeyChoice(initialKeys, role, initialKeyId);
  const { credential, ownKey } = keyChoice;
  const queryClient = useQueryClient();
  const stream = useLiveStream();
  const isStream = op.id === STREAM_OPERATION;
  const streaming = stream.state === "connecting" || stream.state === "open";
  const call = useMutation({
    mutationFn: (body: unknown) =>
      portalFetch<PlaygroundResponse>("/api/portal/playground/call", { method: "POST", body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["portal"] }),
  });
  const symbolField = op.fields.find((f) => f.name === "symbol" || f.name === "ticker");
  const symbol = symbolField ? String(values[`${symbolField.in}:${symbolField.name}`] ?? "") : "";
  const expiryKey = op.fields.find((f) => f.name === "expiry");
  const [listSymbols, setListSymbols] = useState(false);
  const hasKey = Boolean(ownKey);
  const pickers = usePickers(
    { symbols: hasKey && (listSymbols || Boolean(expiryKey)), expiries: hasKey && Boolean(expiryKey) },
    symbol || "AAPL",
    ownKey?.id,
  );
  const chosenExpiry = expiryKey ? String(values[`${expiryKey.in}:expiry`] ?? "") : "";
  const strikes = pickers.expiries?.expiries.find((e) => e.expiry === chosenExpiry)?.strikes;

  // Expiry and strikes start from the chain's first expiry and its at-the-money strike, once the chain is known.
  useEffect(() => {
    const chain = pickers.expiries;
    const e = op.fields.find((f) => f.name === "expiry");
    const s = op.fields.find((f) => f.name === "strikes");
    if (!chain || !e || chain.expiries.length === 0) return;
    setValues((v) => {
      if (v[`${e.in}:expiry`]) return v;
      const firstExpiry = chain.expiries[0];
      const atm = atTheMoney(firstExpiry.strikes, chain.spot);
      return {
        ...v,
        [`${e.in}:expiry`]: firstExpiry.expiry,
        ...(s && !v[`${s.in}:strikes`] && atm !== undefined ? { [`${s.in}:strikes`]: String(atm) } : {}),
      };
    });
  }, [pickers.expiries, op]);

  const req = useMemo(() => toRequest(op, values), [op, values]);
  const operationId = operationIdFor(op.method, op.path);
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const samples = operationId ? codeSamples(operationId, sampleParams(op, req), origin) : null;

  const choose = (id: string) => {
    const next = operations.find((o) => o.id === id);
    if (!next) return;
    setOpId(id);
    setValues(initialValues(next));
    call.reset();
    stream.stop();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (isStream) {
      stream.start({ ...req, ...credential });
      return;
    }
    call.mutate({ ...req, ...credential });
  };
  const groups = GROUP_ORDER.map((name) => ({ name, ops: operations.filter((o) => groupOf(o.path) === name) })).filter(
    (g) => g.ops.length > 0,
  );
  const suggestionsFor = (name: string) => {
    if (name === "symbol" || name === "ticker") return pickers.symbols.map((s) => ({ value: s.symbol, label: s.name }));
    if (name === "expiry") return pickers.expiries?.expiries.map((e) => ({ value: e.expiry }));
    return undefined;
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[17rem_minmax(0,1fr)]">
      <OperationsNav groups={groups} current={opId} onChoose={choose} />
      <div className="min-w-0 space-y-6">
        <form
          onSubmit={submit}
          className="space-y-5 rounded-lg border border-line bg-surface p-4"
          aria-label="Playground request"
        >
          <div className="space-y-1">
            <label htmlFor="pg-operation" className="block text-sm font-medium">
              Route
            </label>
            <select
              id="pg-operation"
              value={opId}
              onChange={(e) => choose(e.target.value)}
              className="h-9 w-full rounded-md border border-line-strong bg-surface px-2 font-mono text-sm"
            >
              {groups.map(({ name, ops }) => (
                <optgroup key={name} label={name}>
                  {ops.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.id}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            <p className="text-sm text-muted">{op.summary}</p>
          </div>
          {op.fields.length > 0 ? (
            <div className="grid gap-4 md:grid-cols-2">
              {op.fields.map((f) => (
                <ParamField
                  key={`${f.in}:${f.name}`}
                  field={f}
                  value={values[`${f.in}:${f.name}`] ?? ""}
                  onChange={(v) => setValues({ ...values, [`${f.in}:${f.name}`]: v })}
                  suggestions={suggestionsFor(f.name)}
                  chips={f.name === "strikes" ? strikes : undefined}
                />
              ))}
              {symbolField && hasKey && !listSymbols && !expiryKey ? (
                <p className="text-xs text-muted md:col-span-2">
                  <button type="button" className="text-link underline" onClick={() => setListSymbols(true)}>
                    List the available symbols
                  </button>{" "}
                  (one metered call to <code>GET /api/v1/symbols</code>)
                </p>
              ) : null}
            </div>
          ) : (
            <p className="text-sm text-muted">This route takes no parameters.</p>
          )}
          {op.authenticated ? (
            <KeyPicker {...keyChoice} canCreate={can(role, "test_keys")} />
          ) : (
            <p className="text-sm text-muted">This route needs no key and is never metered.</p>
          )}
          <div className="flex flex-wrap items-center gap-3">
            {isStream ? (
              <>
                <Button type="submit" variant="primary" disabled={streaming}>
                  {streaming ? "Stream open" : "Open stream"}
                </Button>
                <Button type="button" onClick={stream.stop} disabled={!streaming}>
                  Stop
                </Button>
              </>
            ) : (
              <Button type="submit" variant="primary" disabled={call.isPending}>
                {call.isPending ? "Sending…" : "Send request"}
              </Button>
            )}
            {call.isPending && (
              <p role="status" className="text-sm text-muted">
                Sending the request…
              </p>
            )}
          </div>
          {call.isError && (
            <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft p-2 text-sm text-bad">
              {call.error.message}
            </p>
          )}
        </form>
        {isStream && stream.state !== "idle" ? <StreamList stream={stream} /> : null}
        {isStream && stream.refused ? <ResponseView result={stream.refused} operation={op.id} /> : null}
        {!isStream && call.data && <ResponseView result={call.data} operation={op.id} />}
        {samples ? (
          <section aria-labelledby="pg-code" className="min-w-0 space-y-3 rounded-lg border border-line bg-surface p-4">
            <h2 id="pg-code" className="text-base font-semibold">
              Code
            </h2>
            <CodeTabs label="Language" samples={samples} />
            <p className="text-xs text-muted">
              The code reads your key from the <code>API_KEY</code> environment variable
              {ownKey ? (
                <>
                  : the key you chose above, <code className="break-all">{ownKey.prefix}…</code> (“{ownKey.name}”)
                </>
              ) : null}
              . The clients are <a href="/docs/guides/quick-start">@options-research/client and options_research</a>.
            </p>
          </section>
        ) : null}
      </div>
    </div>
  );
}
