"use client";

import type { KeyListItem } from "@/lib/domain/keys";
import type { PlaygroundOperation } from "@/lib/portal/playground-operations";
import type { CodeSamples } from "@/clients/snippets";
import { Button } from "@/components/ui/button";
import { CodeTabs } from "@/components/ui/code-tabs";
import { ParamField } from "./param-field";

export type Values = Record<string, string | string[]>;
type Groups = { name: string; ops: PlaygroundOperation[] }[];

/** The Route select, by group, and the chosen route's summary. */
export function RouteSelect({
  opId,
  summary,
  groups,
  onChoose,
}: {
  opId: string;
  summary: string;
  groups: Groups;
  onChoose: (id: string) => void;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor="pg-operation" className="block text-sm font-medium">
        Route
      </label>
      <select
        id="pg-operation"
        value={opId}
        onChange={(e) => onChoose(e.target.value)}
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
      <p className="text-sm text-muted">{summary}</p>
    </div>
  );
}

/** The route's parameters, one control each, and (when offered) the link that lists the available symbols. */
export function ParamFields({
  op,
  values,
  setValues,
  suggestionsFor,
  strikes,
  offerSymbols,
  onListSymbols,
}: {
  op: PlaygroundOperation;
  values: Values;
  setValues: (v: Values) => void;
  suggestionsFor: (name: string) => { value: string; label?: string }[] | undefined;
  strikes: number[] | undefined;
  offerSymbols: boolean;
  onListSymbols: () => void;
}) {
  if (op.fields.length === 0) return <p className="text-sm text-muted">This route takes no parameters.</p>;
  return (
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
      {offerSymbols ? (
        <p className="text-xs text-muted md:col-span-2">
          <button type="button" className="text-link underline" onClick={onListSymbols}>
            List the available symbols
          </button>{" "}
          (one metered call to <code>GET /api/v1/symbols</code>)
        </p>
      ) : null}
    </div>
  );
}

/** Send (or, for the stream, open and stop) and the sending note. */
export function SendControls({
  isStream,
  streaming,
  onStop,
  pending,
}: {
  isStream: boolean;
  streaming: boolean;
  onStop: () => void;
  pending: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      {isStream ? (
        <>
          <Button type="submit" variant="primary" disabled={streaming}>
            {streaming ? "Stream open" : "Open stream"}
          </Button>
          <Button type="button" onClick={onStop} disabled={!streaming}>
            Stop
          </Button>
        </>
      ) : (
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? "Sending…" : "Send request"}
        </Button>
      )}
      {pending && (
        <p role="status" className="text-sm text-muted">
          Sending the request…
        </p>
      )}
    </div>
  );
}

/** Why the portal could not send the call. */
export function CallError({ message }: { message: string }) {
  return (
    <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft p-2 text-sm text-bad">
      {message}
    </p>
  );
}

/** The request as code in each client language, reading the key chosen above from API_KEY. */
export function CodeSection({ samples, ownKey }: { samples: CodeSamples; ownKey: KeyListItem | undefined }) {
  return (
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
  );
}
