/** A Server-Sent Events client for tests of GET /api/v1/stream: parsed events as they arrive, waits, disconnect. */
import type postgres from "postgres";
import { waitFor } from "./webhook-receiver";

export interface Sse {
  id: string | null;
  event: string;
  data: unknown;
}

/** An open stream: its parsed events as they arrive, and a way to wait for some and to disconnect. */
export async function openSse(base: string, key: string, query: string, lastEventId?: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/v1/stream?${query}`, {
    headers: { authorization: `Bearer ${key}`, ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
    signal: controller.signal,
  });
  const events: Sse[] = [];
  const comments: string[] = [];
  let ended = false;
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buf = "";
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let cut = buf.indexOf("\n\n");
          while (cut >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const ev: Sse = { id: null, event: "message", data: null };
            let isEvent = false;
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) comments.push(line);
              else if (line.startsWith("id: ")) ev.id = line.slice(4);
              else if (line.startsWith("event: ")) ev.event = line.slice(7);
              else if (line.startsWith("data: ")) {
                ev.data = JSON.parse(line.slice(6));
                isEvent = true;
              }
            }
            if (isEvent) events.push(ev);
            cut = buf.indexOf("\n\n");
          }
        }
      } catch {
        // aborted
      }
      ended = true;
    })();
  }
  return {
    res,
    events,
    comments,
    ended: () => ended,
    close: () => controller.abort(),
    async waitFor(what: string, done: () => boolean, ms = 8000) {
      const until = Date.now() + ms;
      while (!done()) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** A symbol no other test or the demo ticker streams: five random letters. */
export const uniqueStreamSymbol = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(5)), (b) => String.fromCharCode(65 + (b % 26))).join("");

/** Stores one options-flow event as the stream producer would (the test environment's by default); answers its flow id. */
export async function storeFlowEvent(
  sql: import("postgres").Sql,
  symbol: string,
  type: "sweep" | "block" | "unusual",
  premium: number,
  id: string,
  env: "test" | "live" = "test",
): Promise<string> {
  const ev = { id, symbol, type, premium, time: new Date().toISOString(), size: 10, legs: 1 };
  // ::text first: a parameter the server types as jsonb would be JSON-encoded again by some clients (a JSON string).
  await sql`insert into stream_events (env, kind, symbol, premium, dedupe_key, payload)
    values (${env}, ${`flow.${type}`}, ${symbol}, ${premium}, ${id}, ${JSON.stringify(ev)}::text::jsonb)`;
  return id;
}

/**
 * Waits until the engine's first store of stream rows for `env` has committed (its `stream_state` row exists). That
 * first store holds every flow event in view (a whole session's on a weekend): a stream open before it is sent them all,
 * each one metered, which spends a test key's 100-call day. Tests that count calls or open several streams wait here.
 */
export const streamBaselineStored = (sql: postgres.Sql, env: "test" | "live" = "test"): Promise<void> =>
  waitFor(
    `the engine's first stream store (${env})`,
    async () => (await sql`select 1 from stream_state where env = ${env}`).length > 0,
  );
