/**
 * Turns an analytics recompute into events, once per data version across all processes: the first process to take
 * the environment's state row (under an advisory lock) compares with the last processed version, writes the events
 * and fans them out; every other process finds the version already processed and does nothing.
 */
import type { Database } from "../db/client";
import { inTransaction } from "../db/tx";
import type { MarketEnv } from "../analytics/types";
import type { RecomputeNotice } from "../engine/engine";
import { dataLabel } from "../engine/types";
import { DISCLAIMER } from "../contract/disclaimer";
import {
  addSubscription,
  detectEvents,
  emptySubscriptions,
  symbolStates,
  type SymbolState,
} from "../engine/market-events";
import { enqueueEvent, keyAndAccountActive, type KeyEnvName } from "./outbox";
import { iso } from "../db/tx";

/** Processes one data version of one market environment; returns the number of events written. */
export async function produceEvents(
  database: Database,
  env: MarketEnv,
  version: number,
  states: Record<string, SymbolState>,
  now: Date,
): Promise<number> {
  const keyEnv: KeyEnvName = env === "demo" ? "test" : "live";
  return inTransaction(database.sql, async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`webhook-events:${keyEnv}`}))`;
    const [state] = await tx<{ data_version: number; symbols: Record<string, SymbolState> }[]>`
      select data_version, symbols from webhook_event_state where env = ${keyEnv}`;
    if (state && state.data_version >= version) return 0;
    const subs = emptySubscriptions();
    const hooks = await tx<{ events: string[]; symbols: string[]; params: Record<string, unknown> }[]>`
      select events, symbols, params from webhooks w where env = ${keyEnv} and status = 'active' and ${keyAndAccountActive(tx, now)}`;
    for (const h of hooks) addSubscription(subs, h.events, h.symbols, h.params);
    let written = 0;
    for (const e of detectEvents(state?.symbols ?? null, states, subs)) {
      const asOf = new Date(String(e.data.asOf));
      const label = env === "demo" ? "demo" : dataLabel({ env, entitlement: "live" }, asOf, now);
      const payload = {
        type: e.type,
        timestamp: now.toISOString(),
        data: {
          ...e.data,
          environment: keyEnv,
          dataVersion: version,
          isMockData: env === "demo",
          dataLabel: label,
          disclaimer: DISCLAIMER,
        },
      };
      const dedupeKey = `${keyEnv}:${version}:${e.type}:${e.symbol}:${e.threshold ?? ""}`;
      if (
        await enqueueEvent(
          tx,
          {
            env: keyEnv,
            type: e.type,
            symbol: e.symbol,
            threshold: e.threshold,
            dataVersion: version,
            dedupeKey,
            payload,
          },
          now,
        )
      )
        written++;
    }
    await tx`insert into webhook_event_state (env, data_version, symbols, updated_at) values (${keyEnv}, ${version}, ${JSON.stringify(states)}, ${iso(now)})
             on conflict (env) do update set data_version = excluded.data_version, symbols = excluded.symbols, updated_at = excluded.updated_at`;
    return written;
  });
}

/** The engine's onRecompute subscriber: only the views events are defined on (demo, and live at the live entitlement). */
export function eventProducer(database: Database, now: () => Date = () => new Date()) {
  return (r: RecomputeNotice): Promise<number> => {
    if (!(r.env === "demo" || r.entitlement === "live")) return Promise.resolve(0);
    return produceEvents(database, r.env, r.version, symbolStates(r.view, r.snapshot), now());
  };
}
