"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import type { PlaygroundResponse } from "@/lib/portal/playground-call";
import { bodyValue, sampleParams, type PlaygroundOperation } from "@/lib/portal/playground-operations";
import { codeSamples, operationIdFor } from "@/clients/snippets";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Button } from "@/components/ui/button";
import { CodeTabs } from "@/components/ui/code-tabs";
import { cx } from "@/components/ui/cx";
import { SearchIcon } from "@/components/ui/icons";
import { GROUP_ORDER, groupOf } from "./groups";
import { ParamField } from "./param-field";
import { atTheMoney, usePickers } from "./pickers";
import { ResponseView } from "./response-view";
import { PlaygroundKey, type KeyMode } from "./playground-key";
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

const METHOD_TONE: Record<string, string> = {
  GET: "text-ok",
  POST: "text-info",
  PATCH: "text-warn",
  DELETE: "text-bad",
};

export function Playground({ operations, isOwner }: { operations: PlaygroundOperation[]; isOwner: boolean }) {
  const first = operations.find((o) => o.id === DEFAULT_OPERATION) ?? operations[0];
  const [opId, setOpId] = useState(first.id);
  const op = operations.find((o) => o.id === opId) ?? first;
  const [values, setValues] = useState<Values>(() => initialValues(op));
  const [keyMode, setKeyMode] = useState<KeyMode>("playground");
  const [pasted, setPasted] = useState("");
  const [search, setSearch] = useState("");
  const queryClient = useQueryClient();
  const stream = useLiveStream();
  const isStream = op.id === STREAM_OPERATION;
  const streaming = stream.state === "connecting" || stream.state === "open";
  const keyInfo = useQuery({
    queryKey: ["portal", "playground-key"],
    queryFn: () => portalFetch<{ keyId: string; prefix: string } | null>("/api/portal/playground/key"),
  });
  const call = useMutation({
    mutationFn: (body: unknown) =>
      portalFetch<PlaygroundResponse>("/api/portal/playground/call", { method: "POST", body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["portal"] }),
  });
  const symbolField = op.fields.find((f) => f.name === "symbol" || f.name === "ticker");
  const symbol = symbolField ? String(values[`${symbolField.in}:${symbolField.name}`] ?? "") : "";
  const expiryKey = op.fields.find((f) => f.name === "expiry");
  const [listSymbols, setListSymbols] = useState(false);
  const hasKey = Boolean(keyInfo.data);
  const pickers = usePickers(
    { symbols: hasKey && (listSymbols || Boolean(expiryKey)), expiries: hasKey && Boolean(expiryKey) },
    symbol || "AAPL",
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
      stream.start({ ...req, ...(keyMode === "pasted" ? { key: pasted.trim() } : {}) });
      return;
    }
    call.mutate({ ...req, ...(keyMode === "pasted" ? { key: pasted.trim() } : {}) });
  };
  const groups = GROUP_ORDER.map((name) => ({ name, ops: operations.filter((o) => groupOf(o.path) === name) })).filter(
    (g) => g.ops.length > 0,
  );
  const needle = search.trim().toLowerCase();
  const shown = groups
    .map((g) => ({
      ...g,
      ops: g.ops.filter((o) => !needle || `${o.id} ${o.summary} ${g.name}`.toLowerCase().includes(needle)),
    }))
    .filter((g) => g.ops.length > 0);
  const suggestionsFor = (name: string) => {
    if (name === "symbol" || name === "ticker") return pickers.symbols.map((s) => ({ value: s.symbol, label: s.name }));
    if (name === "expiry") return pickers.expiries?.expiries.map((e) => ({ value: e.expiry }));
    return undefined;
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[17rem_minmax(0,1fr)]">
      <nav aria-label="Operations" className="space-y-3 max-lg:hidden lg:sticky lg:top-20 lg:self-start">
        <div className="relative">
          <label htmlFor="pg-search" className="sr-only">
            Find an operation
          </label>
          <SearchIcon className="pointer-events-none absolute top-2.5 left-2.5 text-muted" />
          <input
            id="pg-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Find an operation"
            className="h-9 w-full rounded-md border border-line-strong bg-surface pr-2 pl-8 text-sm"
          />
        </div>
        <div className="max-h-[calc(100vh-10rem)] space-y-3 overflow-y-auto pr-1">
          {shown.length === 0 ? <p className="text-sm text-muted">No operation matches “{search}”.</p> : null}
          {shown.map((g) => (
            <div key={g.name}>
              <p className="px-2 pb-1 text-xs font-semibold text-muted">{g.name}</p>
              <ul>
                {g.ops.map((o) => (
                  <li key={o.id}>
                    <button
                      type="button"
                      onClick={() => choose(o.id)}
                      aria-current={o.id === opId ? "true" : undefined}
                      title={o.id}
                      className={cx(
                        "flex w-full min-w-0 items-baseline gap-2 rounded-md px-2 py-1 text-left text-sm",
                        o.id === opId ? "bg-accent-soft" : "hover:bg-hover",
                      )}
                    >
                      <span
                        className={cx("w-12 shrink-0 font-mono text-[0.6875rem] font-semibold", METHOD_TONE[o.method])}
                      >
                        {o.method}
                      </span>
                      <span className="min-w-0 truncate">{o.summary || o.path}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </nav>
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
            <PlaygroundKey
              info={keyInfo.data ?? null}
              loading={keyInfo.isPending}
              isOwner={isOwner}
              mode={keyMode}
              onMode={setKeyMode}
              pasted={pasted}
              onPasted={setPasted}
            />
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
              The code reads your key from the <code>API_KEY</code> environment variable. The clients are{" "}
              <a href="/docs/guides/quick-start">@options-research/client and options_research</a>.
            </p>
          </section>
        ) : null}
      </div>
    </div>
  );
}
