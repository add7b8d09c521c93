/**
 * The admin overview's market-data freshness table (components/admin/sync-freshness.tsx, issue 26): one row per kind
 * with its schedule, last run, status, live data against its staleness bound, the message and `Run now`; nothing is
 * drawn while no provider is set and nothing has run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { SyncFreshness } from "../../components/admin/sync-freshness";
import type { SyncKindStatus, SyncStatus } from "../../lib/domain/market-sync-status";

const NOW = new Date("2026-11-24T15:00:00Z");
const base = { timeZone: "America/New_York", lateAfterMinutes: 15, late: false, lastApplied: null } as const;
const chain: SyncKindStatus = {
  ...base,
  kind: "chain",
  cron: "*/5 9-16 * * 1-5",
  window: "session",
  lastRun: {
    at: "2026-11-24T14:55:00Z",
    status: "failed",
    rows: 0,
    durationMs: 812,
    error: "auth: the vendor refused the key",
  },
  data: {
    bound: "at most 30 minutes behind the market",
    asOf: "2026-11-24T13:00:00Z",
    stale: [
      { subject: "AAPL", message: "Live chain data for AAPL is 2 hours old." },
      { subject: "MSFT", message: "Live chain data for MSFT is 2 hours old." },
    ],
  },
};
const dividends: SyncKindStatus = {
  ...base,
  kind: "dividends",
  cron: "20 13,16 * * 1-5",
  window: "after_close",
  lateAfterMinutes: 1560,
  lastRun: { at: "2026-11-23T21:20:00Z", status: "ok", rows: 14, durationMs: 300, error: null },
  lastApplied: "2026-11-23T21:20:00Z",
  data: { bound: null, asOf: null, stale: [] },
};
const status = (kinds: SyncKindStatus[], provider: string | null = "massive") =>
  ({ provider, keySet: true, kinds }) as unknown as SyncStatus;
/** `Run now` is a client button that refreshes through the App Router: rendered inside one that does nothing. */
const router = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {}, bfcacheId: "t" };
const render = (s: SyncStatus) =>
  renderToStaticMarkup(
    createElement(AppRouterContext.Provider, { value: router }, createElement(SyncFreshness, { status: s, now: NOW })),
  );
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

test("one row per kind: schedule, last run, status, live data against its bound, message and Run now", () => {
  const html = render(status([chain, dividends]));
  const headers = [...html.matchAll(/<th scope="col"[^>]*>(.*?)<\/th>/g)].map((m) => m[1].replace(/<[^>]+>/g, ""));
  assert.deepEqual(headers, ["Kind", "Schedule", "Last run", "Age", "Status", "Live data", "Message", "Action"]);
  assert.match(html, /Market-data sync per kind/);
  assert.equal((html.match(/<tr/g) ?? []).length, 3, "a header row and one row per kind");
  const t = text(html);
  assert.match(t, /sync:chain/);
  assert.match(t, /Failed/);
  assert.match(t, /Stale: 2 symbols/);
  assert.match(t, /auth: the vendor refused the key/, "a failed run's message comes first");
  assert.match(t, /sync:dividends .*No bound .*reference data: never refused/);
  assert.match(t, /14 rows · 300 ms/);
  assert.match(html, /aria-label="Run now: chain"|Run now: chain/);
  assert.match(html, /Run now: dividends/);
});

test("a kind whose live data is stale shows the API's own message when its run did not fail", () => {
  const t = text(render(status([{ ...chain, lastRun: { ...chain.lastRun!, status: "ok", error: null } }])));
  assert.match(t, /Fresh/);
  assert.match(t, /Live chain data for AAPL is 2 hours old\./);
});

test("nothing is drawn while no provider is set and no sync has run", () => {
  assert.equal(render(status([{ ...dividends, lastRun: null }], null)), "");
});
