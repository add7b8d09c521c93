"use client";

import { useState, type FormEvent } from "react";
import type { KeyListItem } from "@/lib/domain/keys";
import { WEBHOOK_EVENTS } from "@/lib/domain/webhooks";
import { ErrorNote } from "../error-note";

export interface RegisterInput {
  keyId: string;
  webhook: {
    url: string;
    events: string[];
    symbols: string[];
    ivRankAbove?: number;
    ivRankBelow?: number;
    ivChangeAbove?: number;
    description?: string;
  };
}

const num = (v: string) => (v.trim() === "" ? undefined : Number(v));
const field = "w-full rounded border border-line-strong px-3 py-2";

/** Registration: the key (its environment is the webhook's), URL, events, symbols and the thresholds the events need. */
export function RegisterForm({
  keys,
  busy,
  error,
  onRegister,
}: {
  keys: KeyListItem[];
  busy: boolean;
  error: unknown;
  onRegister: (i: RegisterInput) => void;
}) {
  const active = keys.filter((k) => k.state === "active");
  const [events, setEvents] = useState<string[]>(["iv_rank.crossed_above"]);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const s = (k: string) => String(f.get(k) ?? "");
    onRegister({
      keyId: s("keyId"),
      webhook: {
        url: s("url").trim(),
        events,
        symbols: s("symbols")
          .split(/[\s,]+/)
          .filter(Boolean)
          .map((x) => x.toUpperCase()),
        ivRankAbove: num(s("ivRankAbove")),
        ivRankBelow: num(s("ivRankBelow")),
        ivChangeAbove: num(s("ivChangeAbove")),
        description: s("description").trim() || undefined,
      },
    });
  }
  if (active.length === 0)
    return (
      <p className="text-muted">
        Create an API key on the{" "}
        <a className="underline" href="/dashboard/keys">
          API keys
        </a>{" "}
        page first: a webhook belongs to one key and gets that key&apos;s test or live events.
      </p>
    );
  return (
    <form
      onSubmit={submit}
      aria-labelledby="register-title"
      className="space-y-4 rounded border border-line p-4"
      noValidate
    >
      <h2 id="register-title" className="text-xl font-semibold">
        Register a webhook
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <label className="block space-y-1">
          <span className="font-medium">API key</span>
          <select name="keyId" className={field} defaultValue={active[0].id}>
            {active.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name || k.prefix} ({k.env})
              </option>
            ))}
          </select>
          <span className="block text-sm text-muted">
            The webhook receives this key&apos;s environment&apos;s events: test keys demo data, live keys live data.
          </span>
        </label>
        <label className="block space-y-1">
          <span className="font-medium">Endpoint URL</span>
          <input name="url" type="url" required placeholder="https://example.com/hooks" className={field} />
        </label>
        <label className="block space-y-1">
          <span className="font-medium">Symbols</span>
          <input name="symbols" required placeholder="SPY, QQQ" className={field} />
          <span className="block text-sm text-muted">1–50, separated by commas or spaces.</span>
        </label>
        <label className="block space-y-1">
          <span className="font-medium">Description (optional)</span>
          <input name="description" maxLength={200} className={field} />
        </label>
      </div>
      <fieldset className="space-y-1">
        <legend className="font-medium">Events</legend>
        {WEBHOOK_EVENTS.map((ev) => (
          <label key={ev} className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={events.includes(ev)}
              onChange={(e) => setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))}
            />
            <code>{ev}</code>
          </label>
        ))}
      </fieldset>
      <div className="grid gap-4 md:grid-cols-3">
        <label className="block space-y-1">
          <span className="font-medium">IV rank above (0–100)</span>
          <input name="ivRankAbove" inputMode="decimal" className={field} />
        </label>
        <label className="block space-y-1">
          <span className="font-medium">IV rank below (0–100)</span>
          <input name="ivRankBelow" inputMode="decimal" className={field} />
        </label>
        <label className="block space-y-1">
          <span className="font-medium">Day IV change above (vol points)</span>
          <input name="ivChangeAbove" inputMode="decimal" className={field} />
        </label>
      </div>
      <ErrorNote error={error} />
      <button
        type="submit"
        disabled={busy}
        className="rounded bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
      >
        {busy ? "Registering…" : "Register webhook"}
      </button>
    </form>
  );
}
