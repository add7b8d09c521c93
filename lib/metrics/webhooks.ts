/** The webhook metrics: each delivery attempt's time, and the outbox's backlog read from the database at scrape time. */
import type { Kit } from "./kit";

export interface WebhookQueue {
  /** Pending deliveries due now (every process's outbox: each process reports the same figure). */
  due: number;
  /** Seconds since the oldest of them came due; 0 when none is. */
  oldestDueSeconds: number;
}

/** How long a scrape waits for the queue's figures before it reports the last ones. */
const QUEUE_READ_MS = 1000;

export function webhookMetrics(k: Kit) {
  const attempts = k.histogram(
    "webhook_delivery_duration_seconds",
    "Time of one webhook delivery attempt, by outcome.",
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    ["outcome"],
  );
  let source: (() => Promise<WebhookQueue>) | null = null;
  let last: WebhookQueue | null = null;
  let reading: { at: number; done: Promise<void> } | null = null;
  /** One read for both gauges of a scrape; a slow or failed read leaves the last figures. */
  const read = () => {
    const from = source;
    if (!from) return Promise.resolve();
    if (reading && performance.now() - reading.at < QUEUE_READ_MS) return reading.done;
    const fetched = from().then(
      (q) => void (last = q),
      () => {},
    );
    const bound = new Promise<void>((r) => setTimeout(r, QUEUE_READ_MS).unref());
    reading = { at: performance.now(), done: Promise.race([fetched, bound]) };
    return reading.done;
  };
  const gauge = (name: string, help: string, value: (q: WebhookQueue) => number) =>
    k.gauge({
      name,
      help,
      async collect() {
        await read();
        if (last) this.set(value(last));
      },
    });
  gauge(
    "webhook_queue_depth",
    "Webhook deliveries pending and due now (the outbox all processes share).",
    (q) => q.due,
  );
  gauge(
    "webhook_queue_oldest_due_seconds",
    "Seconds since the oldest due delivery came due.",
    (q) => q.oldestDueSeconds,
  );

  return {
    attempt: (ok: boolean, seconds: number) => attempts.observe({ outcome: ok ? "success" : "failure" }, seconds),
    /** Where the queue gauges read at scrape time (the gateway's outbox); returns how to stop. */
    watchQueue(queue: () => Promise<WebhookQueue>): () => void {
      source = queue;
      reading = null;
      return () => {
        if (source === queue) source = null;
      };
    },
  };
}
