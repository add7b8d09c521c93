"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { KeyListItem } from "@/lib/domain/keys";
import { can, type Role } from "@/lib/shared/roles";
import { type Dispatch, type FormEvent, type SetStateAction, useEffect, useMemo, useState } from "react";
import type { PlaygroundResponse } from "@/lib/portal/playground-call";
import { bodyValue, sampleParams, type PlaygroundOperation } from "@/lib/portal/playground-operations";
import { codeSamples, operationIdFor } from "@/clients/snippets";
import { portalFetch } from "@/components/portal/portal-fetch";
import { GROUP_ORDER, groupOf } from "./groups";
import { OperationsNav } from "./operations-nav";
import { CallError, CodeSection, ParamFields, RouteSelect, SendControls, type Values } from "./playground-parts";
import { atTheMoney, usePickers } from "./pickers";
import { ResponseView } from "./response-view";
import { KeyPicker } from "./key-picker";
import { useKeyChoice } from "./own-keys";
import { STREAM_OPERATION } from "@/lib/portal/stream-list";
import { StreamList, useLiveStream } from "./stream-view";

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

/** The operations by group, in the groups' order, without empty groups. */
const groupsOf = (operations: PlaygroundOperation[]) =>
  GROUP_ORDER.map((name) => ({ name, ops: operations.filter((o) => groupOf(o.path) === name) })).filter(
    (g) => g.ops.length > 0,
  );

/** The discovery pickers for the route's symbol and expiry, and the expiry and strike they start the form at. */
function useRoutePickers(
  op: PlaygroundOperation,
  values: Values,
  setValues: Dispatch<SetStateAction<Values>>,
  ownKey: { id: string } | undefined,
) {
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
  }, [pickers.expiries, op, setValues]);

  const suggestionsFor = (name: string) => {
    if (name === "symbol" || name === "ticker") return pickers.symbols.map((s) => ({ value: s.symbol, label: s.name }));
    if (name === "expiry") return pickers.expiries?.expiries.map((e) => ({ value: e.expiry }));
    return undefined;
  };
  const offerSymbols = Boolean(symbolField && hasKey && !listSymbols && !expiryKey);
  return { strikes, suggestionsFor, offerSymbols, listSymbols: () => setListSymbols(true) };
}

/** The request and its code samples for this page's origin (known once mounted). */
function useRequest(op: PlaygroundOperation, values: Values) {
  const req = useMemo(() => toRequest(op, values), [op, values]);
  const operationId = operationIdFor(op.method, op.path);
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const samples = operationId ? codeSamples(operationId, sampleParams(op, req), origin) : null;
  return { req, samples };
}

/** Sending a call through the portal (every portal query refreshed after, for the usage it meters). */
function useCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: unknown) =>
      portalFetch<PlaygroundResponse>("/api/portal/playground/call", { method: "POST", body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["portal"] }),
  });
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
  const stream = useLiveStream();
  const isStream = op.id === STREAM_OPERATION;
  const streaming = stream.state === "connecting" || stream.state === "open";
  const call = useCall();
  const pickers = useRoutePickers(op, values, setValues, ownKey);
  const { req, samples } = useRequest(op, values);

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
  const groups = groupsOf(operations);

  return (
    <div className="grid gap-6 lg:grid-cols-[17rem_minmax(0,1fr)]">
      <OperationsNav groups={groups} current={opId} onChoose={choose} />
      <div className="min-w-0 space-y-6">
        <form
          onSubmit={submit}
          className="space-y-5 rounded-lg border border-line bg-surface p-4"
          aria-label="Playground request"
        >
          <RouteSelect opId={opId} summary={op.summary} groups={groups} onChoose={choose} />
          <ParamFields
            op={op}
            values={values}
            setValues={setValues}
            suggestionsFor={pickers.suggestionsFor}
            strikes={pickers.strikes}
            offerSymbols={pickers.offerSymbols}
            onListSymbols={pickers.listSymbols}
          />
          {op.authenticated ? (
            <KeyPicker {...keyChoice} canCreate={can(role, "test_keys")} />
          ) : (
            <p className="text-sm text-muted">This route needs no key and is never metered.</p>
          )}
          <SendControls isStream={isStream} streaming={streaming} onStop={stream.stop} pending={call.isPending} />
          {call.isError && <CallError message={call.error.message} />}
        </form>
        {isStream && stream.state !== "idle" ? <StreamList stream={stream} /> : null}
        {isStream && stream.refused ? <ResponseView result={stream.refused} operation={op.id} /> : null}
        {!isStream && call.data && <ResponseView result={call.data} operation={op.id} />}
        {samples ? <CodeSection samples={samples} ownKey={ownKey} /> : null}
      </div>
    </div>
  );
}
