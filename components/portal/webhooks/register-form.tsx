"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import type { KeyListItem } from "@/lib/domain/keys";
import type { registerWebhookBody } from "@/lib/portal/schemas";
import { Button } from "@/components/ui/button";
import { RequiredMark } from "@/components/ui/required-mark";
import { ErrorNote } from "../error-note";
import { PortalApiError } from "../portal-fetch";

export type RegisterInput = z.input<typeof registerWebhookBody>;
type Threshold = "ivRankAbove" | "ivRankBelow" | "ivChangeAbove";
const FIELDS = [
  "keyId",
  "url",
  "symbols",
  "events",
  "description",
  "ivRankAbove",
  "ivRankBelow",
  "ivChangeAbove",
] as const;
type FieldName = (typeof FIELDS)[number];

/** The threshold each event needs, with its label and range (the form shows only the ones the chosen events use). */
const THRESHOLDS: { event: string; name: Threshold; label: string; min: number; max: number }[] = [
  { event: "iv_rank.crossed_above", name: "ivRankAbove", label: "IV rank above (0–100)", min: 0, max: 100 },
  { event: "iv_rank.crossed_below", name: "ivRankBelow", label: "IV rank below (0–100)", min: 0, max: 100 },
  {
    event: "iv.day_change_exceeded",
    name: "ivChangeAbove",
    label: "Day IV change above (vol points)",
    min: 0,
    max: 100,
  },
];

const num = (v: string) => (v.trim() === "" ? undefined : Number(v));
const field = "h-9 w-full rounded-md border border-line-strong bg-surface px-3 text-sm aria-[invalid=true]:border-bad";

/** A refusal in the user's words, on the field it concerns (never the API's name for the field, such as ivRankAbove). */
export function friendly(name: FieldName, message: string): string {
  if (name === "url")
    return /refused|private|loopback/.test(message)
      ? "This address is not reachable from the internet (private, loopback or reserved). Use a public https:// URL."
      : /https|http only/.test(message)
        ? "Use an https:// URL."
        : "Enter the endpoint's full URL, starting with https://.";
  const t = THRESHOLDS.find((x) => x.name === name);
  if (t) return `Enter a number from ${t.min} to ${t.max}: the ${t.event} event alerts when it is crossed.`;
  if (name === "symbols") return "Enter 1 to 50 ticker symbols, such as SPY or QQQ.";
  if (name === "events") return "Choose at least one event.";
  if (name === "keyId") return "Choose one of your active API keys.";
  if (name === "description") return "Keep the description to 200 characters or fewer.";
  return message.replace(/^[\w.]+: /, "");
}

/** Checks made before sending, so the common mistakes are named at once and on their field. */
export function check(input: RegisterInput["webhook"]): Partial<Record<FieldName, string>> {
  const errors: Partial<Record<FieldName, string>> = {};
  try {
    const u = new URL(input.url);
    if (u.protocol !== "https:" && u.protocol !== "http:") errors.url = friendly("url", "");
  } catch {
    errors.url = friendly("url", "");
  }
  if (input.events.length === 0) errors.events = friendly("events", "");
  if (input.symbols.length === 0 || input.symbols.length > 50) errors.symbols = friendly("symbols", "");
  for (const t of THRESHOLDS) {
    if (!(input.events as string[]).includes(t.event)) continue;
    const v = input[t.name];
    if (v === undefined || Number.isNaN(v) || v < t.min || v > t.max) errors[t.name] = friendly(t.name, "");
  }
  return errors;
}

function Labelled({
  id,
  label,
  hint,
  error,
  required,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-bad">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The events to subscribe to, as checkboxes; the thresholds the chosen ones need appear below. */
function EventChoice({
  all,
  chosen,
  onChange,
  error,
}: {
  all: readonly string[];
  chosen: string[];
  onChange: (events: string[]) => void;
  error?: string;
}) {
  return (
    <fieldset className="space-y-1.5" aria-describedby={error ? "wh-events-error" : undefined}>
      <legend className="mb-1 text-sm font-medium">Events</legend>
      {all.map((ev) => (
        <label key={ev} className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={chosen.includes(ev)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, ev] : chosen.filter((x) => x !== ev))}
          />
          <code>{ev}</code>
        </label>
      ))}
      {error ? (
        <p id="wh-events-error" role="alert" className="text-xs text-bad">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Each field's error (the form's own check first, then the server's refusal on it) and its aria-describedby. */
function fieldErrors(error: unknown, local: Partial<Record<FieldName, string>>) {
  const server = error instanceof PortalApiError && error.field ? error : null;
  // "webhook.symbols.2" is the symbols field's; the form never shows the API's path itself.
  const named = server?.field?.replace(/^webhook\./, "").replace(/\.\d+$/, "");
  const serverField = FIELDS.find((f) => f === named);
  const errorOf = (name: FieldName) =>
    local[name] ?? (serverField === name && server ? friendly(name, server.message) : undefined);
  const describedBy = (id: string, name: FieldName, hint?: boolean) =>
    [hint ? `${id}-hint` : "", errorOf(name) ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return { serverField, errorOf, describedBy };
}
type FieldErrors = ReturnType<typeof fieldErrors>;

/** The webhook the form describes: its URL, the chosen events, the symbols upper-cased and the thresholds they need. */
function webhookOf(f: FormData, events: string[]): RegisterInput["webhook"] {
  const s = (k: string) => String(f.get(k) ?? "");
  const webhook: RegisterInput["webhook"] = {
    url: s("url").trim(),
    events: events as RegisterInput["webhook"]["events"],
    symbols: s("symbols")
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((x) => x.toUpperCase()),
    description: s("description").trim() || undefined,
  };
  for (const t of THRESHOLDS) if (events.includes(t.event)) webhook[t.name] = num(s(t.name));
  return webhook;
}

/** The endpoint's URL. */
function UrlField({ fe }: { fe: FieldErrors }) {
  return (
    <Labelled
      id="wh-url"
      label="Endpoint URL"
      required
      error={fe.errorOf("url")}
      hint="Where we POST each alert, signed per Standard Webhooks."
    >
      <input
        id="wh-url"
        name="url"
        type="url"
        required
        placeholder="https://example.com/hooks"
        className={field}
        aria-invalid={fe.errorOf("url") ? true : undefined}
        aria-describedby={fe.describedBy("wh-url", "url", true)}
      />
    </Labelled>
  );
}

/** The API key whose environment the webhook takes, from the active ones. */
function KeyField({ active, fe }: { active: KeyListItem[]; fe: FieldErrors }) {
  return (
    <Labelled
      id="wh-key"
      label="API key"
      error={fe.errorOf("keyId")}
      hint="The webhook gets this key's events: test keys demo data, live keys live data."
    >
      <select
        id="wh-key"
        name="keyId"
        className={field}
        defaultValue={active[0].id}
        aria-describedby={fe.describedBy("wh-key", "keyId", true)}
      >
        {active.map((k) => (
          <option key={k.id} value={k.id}>
            {k.name || k.prefix} ({k.env})
          </option>
        ))}
      </select>
    </Labelled>
  );
}

/** The thresholds the chosen events need, one number each. */
function ThresholdFields({ events, fe }: { events: string[]; fe: FieldErrors }) {
  return THRESHOLDS.filter((t) => events.includes(t.event)).map((t) => (
    <Labelled key={t.name} id={`wh-${t.name}`} label={t.label} error={fe.errorOf(t.name)} required>
      <input
        id={`wh-${t.name}`}
        name={t.name}
        required
        inputMode="decimal"
        className={field}
        aria-invalid={fe.errorOf(t.name) ? true : undefined}
        aria-describedby={fe.describedBy(`wh-${t.name}`, t.name)}
      />
    </Labelled>
  ));
}

/** Registration: the key (its environment is the webhook's), URL, events, symbols and the thresholds the events need. */
export function RegisterForm({
  keys,
  events: allEvents,
  busy,
  error,
  onRegister,
}: {
  keys: KeyListItem[];
  events: readonly string[];
  busy: boolean;
  error: unknown;
  onRegister: (i: RegisterInput) => void;
}) {
  const active = keys.filter((k) => k.state === "active");
  const [events, setEvents] = useState<string[]>(["iv_rank.crossed_above"]);
  const [local, setLocal] = useState<Partial<Record<FieldName, string>>>({});
  const fe = fieldErrors(error, local);
  const { errorOf, describedBy } = fe;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const webhook = webhookOf(f, events);
    const found = check(webhook);
    setLocal(found);
    if (Object.keys(found).length === 0) onRegister({ keyId: String(f.get("keyId") ?? ""), webhook });
  }
  if (active.length === 0)
    return (
      <p className="text-sm text-muted">
        Create an API key on the <a href="/dashboard/keys">API keys</a> page first: a webhook belongs to one key and
        gets that key&apos;s test or live events.
      </p>
    );
  return (
    <form onSubmit={submit} aria-labelledby="register-title" className="space-y-5" noValidate>
      <h2 id="register-title" className="text-base font-semibold">
        Register a webhook
      </h2>
      <UrlField fe={fe} />
      <KeyField active={active} fe={fe} />
      <EventChoice all={allEvents} chosen={events} onChange={setEvents} error={errorOf("events")} />
      <ThresholdFields events={events} fe={fe} />
      <Labelled
        id="wh-symbols"
        label="Symbols"
        error={errorOf("symbols")}
        hint="1–50, separated by commas or spaces."
        required
      >
        <input
          id="wh-symbols"
          name="symbols"
          required
          placeholder="SPY, QQQ"
          className={field}
          aria-invalid={errorOf("symbols") ? true : undefined}
          aria-describedby={describedBy("wh-symbols", "symbols", true)}
        />
      </Labelled>
      <Labelled id="wh-description" label="Description (optional)" error={errorOf("description")}>
        <input id="wh-description" name="description" maxLength={200} className={field} />
      </Labelled>
      {error && !fe.serverField ? <ErrorNote error={error} /> : null}
      <Button type="submit" variant="primary" disabled={busy}>
        {busy ? "Registering…" : "Register webhook"}
      </Button>
    </form>
  );
}
