/**
 * Makes the live stream's events from each recompute (the engine's onRecompute, wired by lib/server/gateway.ts) and
 * stores them once per data version across all processes (as the webhook producer does, under an advisory lock): one
 * `state` row per symbol whose IV rank, day IV change or no-trade decision changed (each stream derives its own
 * threshold crossings from the row's before and after), and one `flow.*` row per options-flow event not stored yet. Rows older than the retention are pruned on the way. A transaction that stored rows notifies
 * STREAM_EVENTS_CHANNEL at its commit, which wakes every process's stream hub at once (it polls as well).
 */
import type postgres from "postgres";
import type { Database } from "../db/client";
import { inTransaction, iso } from "../db/tx";
import type { MarketEnv } from "../analytics/types";
import type { FlowEvent } from "../analytics/flow";
import type { MarketView } from "./compute";
import type { RecomputeNotice } from "./engine";
import { STREAM_RETENTION_HOURS } from "../contract/stream";
import { symbolStates, type SymbolState } from "./market-events";

/** A key environment: test keys stream the demo market, live keys the live one. */
type KeyEnvName = "test" | "live";

/** The NOTIFY channel the stream hubs listen on (the payload: the key environment whose rows were stored). */
export const STREAM_EVENTS_CHANNEL = "stream_events";

/** Wakes the stream hubs when `tx` commits (PostgreSQL delivers a notification at its transaction's commit). */
export async function notifyStreamEvents(tx: postgres.TransactionSql, env: KeyEnvName): Promise<void> {
  await tx`select pg_notify(${STREAM_EVENTS_CHANNEL}, ${env})`;
}

const changed = (a: SymbolState | undefined, b: SymbolState) =>
  !a || a.ivRank !== b.ivRank || a.ivDayChange !== b.ivDayChange || a.decision !== b.decision;

/** Most flow rows a producer remembers as stored; past it, it forgets them all and the next write re-sends them once. */
const KNOWN_MAX = 50_000;

/**
 * Writes one data version's stream rows; returns how many were written. `known` holds the dedupe keys of flow rows
 * this process knows are stored: they are not sent again (a night session keeps thousands of flow events in view).
 */
export async function produceStreamEvents(
  database: Database,
  env: MarketEnv,
  version: number,
  states: Record<string, SymbolState>,
  flow: FlowEvent[],
  now: Date,
  known: Set<string> = new Set(),
): Promise<number> {
  const keyEnv: KeyEnvName = env === "demo" ? "test" : "live";
  const retainedFrom = new Date(now.getTime() - STREAM_RETENTION_HOURS * 3_600_000);
  const sent: string[] = [];
  const written = await inTransaction(database.sql, async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`stream-events:${keyEnv}`}))`;
    const [state] = await tx<{ data_version: number; symbols: Record<string, SymbolState> }[]>`
      select data_version, symbols from stream_state where env = ${keyEnv}`;
    if (state && state.data_version >= version) return 0;
    const rows: { kind: string; symbol: string; premium: number | null; dedupe: string; payload: unknown }[] = [];
    if (state)
      for (const [symbol, cur] of Object.entries(states)) {
        const prev = state.symbols[symbol];
        if (prev && changed(prev, cur))
          rows.push({
            kind: "state",
            symbol,
            premium: null,
            dedupe: `${keyEnv}:${version}:${symbol}`,
            payload: { prev, cur },
          });
      }
    // Oldest first, so that ids follow the prints' order; events older than the retention are not streamed.
    for (let i = flow.length - 1; i >= 0; i--) {
      const e = flow[i];
      const dedupe = `${keyEnv}:flow:${e.id}`;
      if (Date.parse(e.time) < retainedFrom.getTime() || known.has(dedupe)) continue;
      rows.push({ kind: `flow.${e.type}`, symbol: e.symbol, premium: e.premium, dedupe, payload: e });
      sent.push(dedupe);
    }
    let written = 0;
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      const inserted = await tx`
        insert into stream_events (env, kind, symbol, data_version, premium, dedupe_key, payload, created_at)
        select ${keyEnv}::key_env, r.kind, r.symbol, ${version}, r.premium, r.dedupe, r.payload, ${iso(now)}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as r(kind text, symbol text, premium float8, dedupe text, payload jsonb)
        on conflict (dedupe_key) do nothing
        returning id`;
      written += inserted.length;
    }
    await tx`insert into stream_state (env, data_version, symbols, updated_at) values (${keyEnv}, ${version}, ${JSON.stringify(states)}, ${iso(now)})
             on conflict (env) do update set data_version = excluded.data_version, symbols = excluded.symbols, updated_at = excluded.updated_at`;
    await tx`delete from stream_events where env = ${keyEnv} and created_at < ${iso(retainedFrom)}::timestamptz`;
    if (written > 0) await notifyStreamEvents(tx, keyEnv);
    return written;
  });
  if (known.size + sent.length > KNOWN_MAX) known.clear();
  for (const k of sent) known.add(k); // committed: written now, or by another process before
  return written;
}

/** The engine's onRecompute subscriber for the stream: the same views as webhook events (demo; live at the live entitlement). */
export function streamProducer(database: Database, now: () => Date = () => new Date()) {
  const known: Record<MarketEnv, Set<string>> = { demo: new Set(), live: new Set() };
  return (r: RecomputeNotice): Promise<number> => {
    if (!(r.env === "demo" || r.entitlement === "live")) return Promise.resolve(0);
    const states = symbolStates(r.view, r.snapshot);
    return produceStreamEvents(database, r.env, r.version, states, flowOf(r.view), now(), known[r.env]);
  };
}

const flowOf = (view: MarketView) => view.flowEvents;
