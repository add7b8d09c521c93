/**
 * `cli webhooks listen` (like `stripe listen`): opens GET /api/v1/stream for a test key with the chosen filters and
 * forwards each event to a local URL as a Standard Webhooks delivery, signed with a secret made for this session.
 * Reconnects with Last-Event-ID, so an event is forwarded once even across a dropped connection.
 */
import { isIP } from "node:net";
import { DomainError } from "./errors";
import { newSigningSecret, signedHeaders } from "../webhooks/signing";

export { LISTEN_DEFAULT_EVENTS as DEFAULT_LISTEN_EVENTS } from "../shared/listen-command";

export interface ListenOptions {
  apiBase: string;
  key: string;
  forwardTo: string;
  events: string[];
  symbols?: string[];
  /** A whsec_ secret to sign with; a new one when absent. */
  secret?: string;
  /** One line per thing worth saying: the secret first, then one per forwarded event. */
  say: (line: string) => void;
  signal?: AbortSignal;
}

export interface StreamedEvent {
  id: string;
  type: string;
  symbol: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);

/** The forward target must be this machine (http or https on loopback): events are never sent elsewhere. */
export function checkForwardTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError("invalid", "--forward-to must be an absolute URL, e.g. http://localhost:4242/webhooks");
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith("127."));
  if (!["http:", "https:"].includes(url.protocol) || !loopback)
    throw new DomainError("invalid", "--forward-to must be an http(s) URL on this machine (localhost or 127.0.0.1)");
  return url;
}

/** Live keys are refused: listen forwards the demo market's events only (test mode). */
export function checkListenKey(key: string): void {
  if (!key.startsWith("svc_test_"))
    throw new DomainError("invalid", "webhooks listen takes a test key (svc_test_…); live events are never forwarded");
}

/** The delivery a registered webhook would receive for this event: same body shape, same three signed headers. */
export function deliveryFor(event: StreamedEvent, secret: string, now = new Date()) {
  const body = JSON.stringify({
    type: event.type,
    timestamp: event.timestamp,
    data: { symbol: event.symbol, ...event.data },
  });
  const id = `msg_listen_${event.id}`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "options-research-cli-listen",
    ...signedHeaders([secret], id, Math.floor(now.getTime() / 1000), body),
  };
  return { id, body, headers };
}

/** Splits an SSE byte stream into events (`error` events end the session with their message). */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    for (let cut = buf.indexOf("\n\n"); cut >= 0; cut = buf.indexOf("\n\n")) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (data.length > 0) yield { event, data: data.join("\n") };
    }
  }
}

async function forward(target: URL, event: StreamedEvent, secret: string, say: (l: string) => void) {
  const d = deliveryFor(event, secret);
  const res = await fetch(target, { method: "POST", headers: d.headers, body: d.body, redirect: "manual" }).catch(
    (err: Error) => err,
  );
  const outcome = res instanceof Error ? `failed: ${res.message}` : `[${res.status}]`;
  if (!(res instanceof Error)) await res.body?.cancel();
  say(`${new Date().toISOString()}  --> ${event.type} ${event.symbol} ${d.id}  ${outcome}`);
}

/** Opens the stream once; resolves with the last event id seen when the connection ends. */
async function session(opts: ListenOptions, target: URL, secret: string, lastId: string | null) {
  const query = new URLSearchParams({ events: opts.events.join(",") });
  if (opts.symbols?.length) query.set("symbols", opts.symbols.join(","));
  const res = await fetch(`${opts.apiBase}/api/v1/stream?${query}`, {
    headers: { authorization: `Bearer ${opts.key}`, ...(lastId ? { "last-event-id": lastId } : {}) },
    signal: opts.signal,
  });
  if (!res.ok || !res.body) {
    const text = await res.text();
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { error: { message: string } }).error.message;
    } catch {}
    throw new DomainError("invalid", `the stream refused to open (${res.status}): ${message}`);
  }
  for await (const e of sseEvents(res.body)) {
    if (e.event === "error")
      throw new DomainError(
        "invalid",
        `the stream ended: ${(JSON.parse(e.data) as { error: { message: string } }).error.message}`,
      );
    const event = JSON.parse(e.data) as StreamedEvent;
    lastId = event.id;
    await forward(target, event, secret, opts.say);
  }
  return lastId;
}

/** Runs until aborted (or until the server refuses the stream); reconnects after a dropped connection. */
export async function listen(opts: ListenOptions): Promise<void> {
  checkListenKey(opts.key);
  const target = checkForwardTarget(opts.forwardTo);
  const secret = opts.secret ?? newSigningSecret();
  opts.say(`Ready. Your webhook signing secret is ${secret} (this session's; verify deliveries with it)`);
  opts.say(`Forwarding test events (${opts.events.join(", ")}) to ${target.href}`);
  let lastId: string | null = null;
  while (!opts.signal?.aborted) {
    try {
      lastId = await session(opts, target, secret, lastId);
    } catch (err) {
      if (opts.signal?.aborted) return;
      if (err instanceof DomainError) throw err;
      opts.say(`${new Date().toISOString()}  stream dropped (${(err as Error).message}); reconnecting`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
