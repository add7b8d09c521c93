"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { PlaygroundResponse } from "@/lib/portal/playground-call";
import {
  arrivalNote,
  prependItems,
  STREAM_LIST_CAP,
  streamParser,
  type StreamItem,
  type StreamMessage,
} from "@/lib/portal/stream-list";
import { DISCLAIMER } from "@/lib/contract/disclaimer";
import { ScrollRegion } from "@/components/scroll-region";
import { Badge, type Tone } from "@/components/ui/badge";

export type StreamState = "idle" | "connecting" | "open" | "closed";

export interface LiveStream {
  state: StreamState;
  items: StreamItem[];
  /** Why the stream ended (its error event, the portal's limit, a network failure), when it did. */
  ended: { code?: string; message: string; bad: boolean } | null;
  /** The gateway refused to open it: its answer, shown like any response. */
  refused: PlaygroundResponse | null;
  lastHeartbeat: Date | null;
  start(body: unknown): void;
  stop(): void;
}

/** How often at most the screen reader hears "n new events". */
const ANNOUNCE_MS = 5000;

type Ended = LiveStream["ended"];

const STOPPED: Ended = { message: "Stopped.", bad: false };

/** The portal's answer when the stream did not open: the gateway's refusal (passed to `onRefused`) or its own. */
async function refusalOf(res: Response, onRefused: (r: PlaygroundResponse) => void): Promise<Ended> {
  const json = (await res.json().catch(() => null)) as {
    data?: PlaygroundResponse;
    error?: { message?: string };
  } | null;
  if (res.ok && json?.data) {
    onRefused(json.data);
    return { message: `The gateway answered HTTP ${json.data.status}; the stream did not open.`, bad: true };
  }
  return { message: json?.error?.message ?? `The portal answered ${res.status}; try again.`, bad: true };
}

/** Reads an open stream to its end, passing on its events and heartbeats: why it ended. */
async function readStream(res: Response, signal: AbortSignal, onMessage: (m: StreamMessage) => void): Promise<Ended> {
  let why: Ended = null;
  const parser = streamParser((m: StreamMessage) => {
    if (m.kind === "event" || m.kind === "heartbeat") onMessage(m);
    else if (m.kind === "error") why = { code: m.code, message: m.message, bad: true };
    else why = { message: m.reason, bad: false };
  });
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      if (!reader) break;
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    return why ?? { message: "The stream ended.", bad: false };
  } catch {
    return signal.aborted
      ? STOPPED
      : (why ?? { message: "The connection dropped; run it again to resume.", bad: true });
  }
}

/** Runs one stream request from its POST to its end: why it ended. */
async function runStream(
  body: unknown,
  signal: AbortSignal,
  on: { open: () => void; refused: (r: PlaygroundResponse) => void; message: (m: StreamMessage) => void },
): Promise<Ended> {
  let res: Response;
  try {
    res = await fetch("/api/portal/playground/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
      signal,
    });
  } catch {
    return signal.aborted
      ? STOPPED
      : { message: "The portal could not be reached; check your connection and try again.", bad: true };
  }
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) return refusalOf(res, on.refused);
  on.open();
  return readStream(res, signal, on.message);
}

/** "n new events" for the screen reader, at most every ANNOUNCE_MS while the stream is open. */
function useArrivalNotes(state: StreamState) {
  const [announcement, setAnnouncement] = useState("");
  const unannounced = useRef(0);
  const total = useRef(0);
  useEffect(() => {
    if (state !== "open") return;
    const t = setInterval(() => {
      if (unannounced.current === 0) return;
      setAnnouncement(arrivalNote(unannounced.current, total.current));
      unannounced.current = 0;
    }, ANNOUNCE_MS);
    return () => clearInterval(t);
  }, [state]);
  const reset = useCallback(() => {
    total.current = 0;
    unannounced.current = 0;
    setAnnouncement("");
  }, []);
  const arrived = useCallback(() => {
    total.current = Math.min(total.current + 1, STREAM_LIST_CAP);
    unannounced.current++;
  }, []);
  return { announcement, reset, arrived };
}

/** Opens the playground's stream route and follows it; Stop (or leaving the page) aborts the request. */
export function useLiveStream(): LiveStream & { announcement: string } {
  const [state, setState] = useState<StreamState>("idle");
  const [items, setItems] = useState<StreamItem[]>([]);
  const [ended, setEnded] = useState<LiveStream["ended"]>(null);
  const [refused, setRefused] = useState<PlaygroundResponse | null>(null);
  const [lastHeartbeat, setLastHeartbeat] = useState<Date | null>(null);
  const abort = useRef<AbortController | null>(null);

  const stop = useCallback(() => {
    abort.current?.abort();
    abort.current = null;
  }, []);
  useEffect(() => stop, [stop]);
  const { announcement, reset, arrived } = useArrivalNotes(state);

  const start = useCallback(
    (body: unknown) => {
      stop();
      const ac = new AbortController();
      abort.current = ac;
      setItems([]);
      reset();
      setEnded(null);
      setRefused(null);
      setLastHeartbeat(null);
      setState("connecting");
      const message = (m: StreamMessage) => {
        if (m.kind === "event") {
          arrived();
          setItems((list) => prependItems(list, [m.item]));
        } else setLastHeartbeat(new Date());
      };
      void (async () => {
        const why = await runStream(body, ac.signal, { open: () => setState("open"), refused: setRefused, message });
        if (abort.current === ac) abort.current = null;
        setEnded(why);
        setState("closed");
      })();
    },
    [stop, reset, arrived],
  );

  return { state, items, ended, refused, lastHeartbeat, start, stop, announcement };
}

const STATE_WORDS: Record<StreamState, [string, Tone]> = {
  idle: ["Not connected", "neutral"],
  connecting: ["Connecting…", "info"],
  open: ["Connected: waiting for events", "ok"],
  closed: ["Closed", "neutral"],
};

const tone = (type: string): Tone =>
  type.startsWith("flow.") ? "info" : type.startsWith("no_trade") ? "warn" : type === "error" ? "bad" : "ok";

const time = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
};

/** The live list: connection state, the newest events first (capped), each expandable to its data; the disclaimer. */
export function StreamList({ stream }: { stream: LiveStream & { announcement: string } }) {
  const [words, stateTone] = STATE_WORDS[stream.state];
  const count = stream.items.length;
  return (
    <section
      aria-labelledby="pg-stream"
      className="min-w-0 space-y-3 rounded-lg border border-line bg-surface p-4"
      data-testid="playground-stream"
    >
      <h2 id="pg-stream" className="text-base font-semibold">
        Live events
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        <p role="status" className="flex flex-wrap items-center gap-2 text-sm" data-testid="pg-stream-state">
          <Badge tone={stateTone}>{stream.state === "open" && count > 0 ? "Connected" : words}</Badge>
          <span className="text-xs text-muted">
            {count === 0
              ? "No event yet."
              : `${count} event${count === 1 ? "" : "s"}${count >= STREAM_LIST_CAP ? ` (the newest ${STREAM_LIST_CAP})` : ""}.`}
            {stream.lastHeartbeat ? ` Last heartbeat ${stream.lastHeartbeat.toLocaleTimeString()}.` : ""}
          </span>
        </p>
      </div>
      <p className="sr-only" aria-live="polite">
        {stream.announcement}
      </p>
      {stream.ended ? (
        <p
          className={
            stream.ended.bad
              ? "rounded-md border border-bad/40 bg-bad-soft p-3 text-sm text-bad"
              : "rounded-md border border-line bg-subtle p-3 text-sm"
          }
          data-testid="pg-stream-ended"
        >
          {stream.ended.code ? <code className="bg-transparent p-0 font-semibold">{stream.ended.code}: </code> : null}
          {stream.ended.message}
        </p>
      ) : null}
      <p className="rounded-md border border-warn/40 bg-warn-soft p-3 text-sm text-warn">
        <strong>Disclaimer in every event:</strong> {DISCLAIMER}
      </p>
      {count === 0 ? (
        stream.state === "open" ? (
          <p className="rounded-md border border-dashed border-line p-4 text-center text-sm text-muted">
            Events appear here as the market moves. The demo market moves at any hour: outside US session hours its
            night session prints a sweep or block about every 20 s. A heartbeat comes every 15 s.
          </p>
        ) : null
      ) : (
        <ScrollRegion label="Live events, newest first" className="max-h-[32rem] overflow-y-auto">
          <ol className="divide-y divide-line" data-testid="pg-stream-list">
            {stream.items.map((e) => (
              <li key={e.id} className="py-2">
                <details>
                  <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
                    <Badge tone={tone(e.type)} className="font-mono">
                      {e.type}
                    </Badge>
                    <span className="font-semibold">{e.symbol}</span>
                    <time dateTime={e.timestamp} className="text-xs text-muted">
                      {time(e.timestamp)}
                    </time>
                    <span className="font-mono text-xs text-muted">id {e.id}</span>
                  </summary>
                  <pre className="mt-2 max-h-64 overflow-y-auto rounded-md bg-code-bg p-3 text-xs break-words whitespace-pre-wrap text-code-fg">
                    {JSON.stringify(e.data, null, 2)}
                  </pre>
                </details>
              </li>
            ))}
          </ol>
        </ScrollRegion>
      )}
    </section>
  );
}
