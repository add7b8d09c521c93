/**
 * What the live stream sends, made once per round: a stored row's events for a stream's filters, encoded as SSE frames
 * (docs/api-contract.md "Live stream"), and a stream's frames of a round joined into one chunk. Rows, filters and
 * frames are plain values, so every rule here is tested without a hub (tests/unit/stream-frames.test.ts).
 */
import { DISCLAIMER } from "../../contract/disclaimer";
import type { StreamEvent, StreamQuery } from "../../contract/stream";
import type { FlowEvent } from "../../analytics/flow";
import {
  addSubscription,
  detectEvents,
  emptySubscriptions,
  type Subscriptions,
  type SymbolState,
} from "../../engine/market-events";
import type { StreamPosition } from "../stream-position";

export type KeyEnv = "test" | "live";

/** A row of stream_events (lib/engine/stream-events.ts): a flow event, or a symbol's state before and after. */
export interface StoredRow {
  id: number;
  env: KeyEnv;
  kind: string;
  symbol: string;
  payload: unknown;
  created_at: Date;
}

/** Everything that decides which events a stream is sent from a row. */
export interface StreamFilter {
  env: KeyEnv;
  query: StreamQuery;
  events: Set<string>;
  symbols: Set<string> | null;
  minPremium: number;
  /** The thresholds and events: streams with the same profile derive the same market events from a state row. */
  profile: string;
  /** Streams with the same key are sent the same events of the same rows. */
  key: string;
}

export function streamFilter(env: KeyEnv, q: StreamQuery): StreamFilter {
  const profile = `${[...q.events].sort().join(",")}|${q.iv_rank_above ?? ""}|${q.iv_rank_below ?? ""}|${q.iv_change_above ?? ""}`;
  const symbols = q.symbols ? [...new Set(q.symbols)].sort().join(",") : "*";
  return {
    env,
    query: q,
    events: new Set(q.events),
    symbols: q.symbols ? new Set(q.symbols) : null,
    minPremium: q.min_premium ?? 0,
    profile,
    key: `${env}|${profile}|${symbols}|${q.min_premium ?? 0}`,
  };
}

/** An encoded event: its SSE bytes are built once per round and shared by every stream it goes to. */
export interface Frame {
  /** Per round: names the frame in a stream's sequence (streams with the same sequence share one buffer). */
  serial: number;
  id: string;
  row: number;
  index: number;
  bytes: Uint8Array;
}

const encoder = new TextEncoder();
export const encodeText = (text: string) => encoder.encode(text);
const sse = (e: StreamEvent) => encoder.encode(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);

const base = (env: KeyEnv) => ({
  environment: env,
  isMockData: env === "test",
  dataLabel: env === "test" ? "demo" : "live",
  disclaimer: DISCLAIMER,
});

function subscriptionsOf(q: StreamQuery, symbol: string): Subscriptions {
  const subs = emptySubscriptions();
  addSubscription(subs, q.events, [symbol], {
    ivRankAbove: q.iv_rank_above,
    ivRankBelow: q.iv_rank_below,
    ivChangeAbove: q.iv_change_above,
  });
  return subs;
}

/** Whether the event (row, index) comes after position p. */
export const isAfter = (p: StreamPosition, row: number, index: number) =>
  row > p.row || (row === p.row && index > p.index);

/** One round's derivations: each (environment, row, profile) is derived and encoded once, whatever the streams. */
export class Derivations {
  /** Flow rows: one event each, the same for every stream of the row's environment that takes it. */
  private readonly flows = new Map<StoredRow, Frame[]>();
  /** State rows: the events by threshold profile. */
  private readonly states = new Map<StoredRow, Map<string, Frame[]>>();
  private readonly subs = new Map<string, Subscriptions>();
  /** Per list of rows, the events by stream filter. */
  private readonly runs = new Map<StoredRow[], Map<string, Frame[]>>();
  private serial = 0;

  /**
   * The events a list of rows yields for a filter, derived once for every stream with the same filter: the same array
   * (so its joined bytes are built once too). Frames are in (row, index) order.
   */
  run(filter: StreamFilter, rows: StoredRow[]): Frame[] {
    let byFilter = this.runs.get(rows);
    if (!byFilter) this.runs.set(rows, (byFilter = new Map()));
    let frames = byFilter.get(filter.key);
    if (!frames) {
      frames = [];
      for (const r of rows) for (const f of this.for(filter, r)) frames.push(f);
      byFilter.set(filter.key, frames);
    }
    return frames;
  }

  /** The events one stored row yields for a filter, in a fixed order (so an index names the same event again). */
  for(filter: StreamFilter, row: StoredRow): Frame[] {
    if (filter.symbols && !filter.symbols.has(row.symbol)) return [];
    if (row.kind !== "state") {
      if (!filter.events.has(row.kind) || (row.payload as FlowEvent).premium < filter.minPremium) return [];
      let f = this.flows.get(row);
      if (!f) {
        const flow = row.payload as FlowEvent;
        const type = row.kind as StreamEvent["type"];
        f = [this.frame(row, 0, { type, symbol: row.symbol, data: { ...flow, ...base(row.env) } })];
        this.flows.set(row, f);
      }
      return f;
    }
    let byProfile = this.states.get(row);
    if (!byProfile) this.states.set(row, (byProfile = new Map()));
    let f = byProfile.get(filter.profile);
    if (!f) {
      const { prev, cur } = row.payload as { prev: SymbolState; cur: SymbolState };
      const subsKey = `${filter.profile}|${row.symbol}`;
      let subs = this.subs.get(subsKey);
      if (!subs) this.subs.set(subsKey, (subs = subscriptionsOf(filter.query, row.symbol)));
      f = detectEvents({ [row.symbol]: prev }, { [row.symbol]: cur }, subs).map((d, i) =>
        this.frame(row, i, { type: d.type, symbol: d.symbol, data: { ...d.data, ...base(row.env) } }),
      );
      byProfile.set(filter.profile, f);
    }
    return f;
  }

  private frame(row: StoredRow, index: number, e: Pick<StreamEvent, "type" | "symbol" | "data">): Frame {
    const id = `${row.id}.${index}`;
    const event: StreamEvent = {
      id,
      type: e.type,
      symbol: e.symbol,
      timestamp: new Date(row.created_at).toISOString(),
      data: e.data,
    };
    return { serial: this.serial++, id, row: row.id, index, bytes: sse(event) };
  }
}

/** One round's joined bytes, by frame array (streams handed the same array) and by the frames' serials. */
export type Joined = Map<Frame[] | string, Uint8Array>;

/** A stream's frames of a round as one chunk, shared with every stream of the round sent the same sequence. */
export function joinFrames(frames: Frame[], joined: Joined): Uint8Array {
  if (frames.length === 1) return frames[0].bytes;
  // Streams with the same filter are handed the same array: found by identity, without building a key.
  let known = joined.get(frames);
  if (known) return known;
  // A stream's frames need not be in serial order (a row's frame may have been made for another filter first): the
  // short key names only a run of consecutive serials.
  const first = frames[0].serial;
  const consecutive = frames.every((f, i) => f.serial === first + i);
  const key = consecutive ? `${first}-${frames.length}` : frames.map((f) => f.serial).join(",");
  known = joined.get(key);
  if (!known) {
    known = new Uint8Array(frames.reduce((n, f) => n + f.bytes.length, 0));
    let at = 0;
    for (const f of frames) {
      known.set(f.bytes, at);
      at += f.bytes.length;
    }
    joined.set(key, known);
  }
  joined.set(frames, known);
  return known;
}
