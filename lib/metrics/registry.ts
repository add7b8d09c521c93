/**
 * The process's metrics, scraped at GET /metrics (docs/operations.md "Metrics"): one prom-client registry per process,
 * kept on globalThis so that Next's separately bundled route handlers and its instrumentation hook share it. What is
 * observed on every call (requests, admission waits, statements in flight) costs a few additions: FastHistogram children
 * made once, plain numbers read at scrape time. Labels are small fixed sets (route family, status class, kind), never a
 * path, key or account.
 */
import { collectDefaultMetrics, Registry } from "prom-client";
import type { HistogramChild } from "./fast-histogram";
import { type Kit, kit, LATENCY_BUCKETS } from "./kit";
import { webhookMetrics } from "./webhooks";

export type { WebhookQueue } from "./webhooks";

export const ROUTE_FAMILIES = ["A", "B", "portal", "admin", "none"] as const;
export type RouteFamily = (typeof ROUTE_FAMILIES)[number];
const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

const SLOW = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export type DeadlineKind = "statement" | "transaction" | "admission";
export type AdmissionRefusal = "queue_full" | "deadline" | "store_error";

/** Requests by route family and status class: one preallocated child each, so a call costs one bucket search. */
function requestMetrics(k: Kit) {
  const requests = k.fastHistogram(
    "http_request_duration_seconds",
    "Time from a request's arrival to its answer's headers, by route family and status class.",
    LATENCY_BUCKETS,
  );
  k.registry.registerMetric(
    requests.countAsMetric("http_requests_total", "Requests answered, by route family and status class."),
  );
  const byFamily = Object.fromEntries(
    ROUTE_FAMILIES.map((family) => [family, STATUS_CLASSES.map((c) => requests.child({ family, status_class: c }))]),
  ) as Record<RouteFamily, HistogramChild[]>;
  const statusIndex = (status: number) => Math.min(Math.max(Math.floor(status / 100) - 1, 0), 4);
  /** A request answered: its family, status and seconds since arrival. */
  return (family: RouteFamily, status: number, seconds: number): void =>
    byFamily[family][statusIndex(status)].observe(seconds);
}

function admissionMetrics(k: Kit) {
  const waited = k
    .fastHistogram(
      "admission_wait_seconds",
      "Time a metered call waited for its admission decision (queued and in its batch).",
      LATENCY_BUCKETS,
    )
    .child();
  const size = k.histogram(
    "admission_batch_size",
    "Calls decided by one admission batch (one admit_batch call).",
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
  );
  const duration = k.histogram(
    "admission_batch_duration_seconds",
    "Round trip of one admission batch.",
    LATENCY_BUCKETS,
  );
  const refused = k.counter(
    "admission_refused_total",
    "Calls refused 503 by admission: queue full, deadline passed, or the batch failed.",
    ["reason"],
  );
  for (const reason of ["queue_full", "deadline", "store_error"] as const) refused.inc({ reason }, 0);
  return {
    batch(calls: number, seconds: number) {
      size.observe(calls);
      duration.observe(seconds);
    },
    waited: (seconds: number) => waited.observe(seconds),
    refused: (reason: AdmissionRefusal, n = 1) => refused.inc({ reason }, n),
  };
}

function databaseMetrics(k: Kit) {
  const state = { inFlight: 0 };
  const poolMax = k.gauge({ name: "db_pool_max_connections", help: "Connections the process's pools may open." });
  k.gauge({
    name: "db_statements_in_flight",
    help: "Statements and transactions awaited on the pools and not settled (beyond the pool size they queue).",
    collect() {
      this.set(state.inFlight);
    },
  });
  const renewals = k.counter("db_pool_renewals_total", "Pools replaced after a lost or stalled database.", ["reason"]);
  const deadlines = k.counter(
    "db_deadline_exceeded_total",
    "Database waits cut at DB_DEADLINE_MS: statements, transactions, admission decisions.",
    ["kind"],
  );
  for (const kind of ["statement", "transaction", "admission"] as const) deadlines.inc({ kind }, 0);
  return {
    /** Counted by lib/db/renewing-pool.ts around every awaited statement. */
    state,
    poolOpened: (max: number) => poolMax.inc(max),
    poolClosed: (max: number) => poolMax.dec(max),
    renewed: (reason: string) => renewals.inc({ reason }),
    deadline: (kind: DeadlineKind, n = 1) => deadlines.inc({ kind }, n),
  };
}

/** The background work: engine recomputes, live streams, market-data sync runs. */
function jobMetrics(k: Kit) {
  const recompute = k.histogram(
    "engine_recompute_duration_seconds",
    "Time to load and compute one market view after a data update.",
    SLOW,
    ["view"],
  );
  const streams = k.gauge({ name: "stream_connections", help: "Live streams open in this process." });
  const sent = k.counter("stream_events_sent_total", "Events written to live streams.");
  const lag = k.histogram("stream_lag_seconds", "Age of the oldest stored event a fan-out round sent.", SLOW);
  const runs = k.counter("market_sync_runs_total", "Market-data sync runs, by kind.", ["kind"]);
  const failures = k.counter("market_sync_failures_total", "Sync runs that failed, by kind and reason.", [
    "kind",
    "reason",
  ]);
  const duration = k.histogram("market_sync_duration_seconds", "Time of one market-data sync run.", SLOW, ["kind"]);
  const success = k.gauge({
    name: "market_sync_last_success_timestamp_seconds",
    help: "When a sync run of the kind last succeeded in this process (Unix seconds).",
    labelNames: ["kind"],
  });
  return {
    engine: { recomputed: (view: string, seconds: number) => recompute.observe({ view }, seconds) },
    streams: {
      opened: () => streams.inc(),
      closed: () => streams.dec(),
      sent: (n: number) => sent.inc(n),
      lag: (seconds: number) => lag.observe(seconds),
    },
    marketSync: {
      ran(kind: string, failure: string | null, seconds: number) {
        runs.inc({ kind });
        duration.observe({ kind }, seconds);
        if (failure) failures.inc({ kind, reason: failure });
        else success.set({ kind }, Date.now() / 1000);
      },
    },
  };
}

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const k = kit(registry);
  return {
    registry,
    request: requestMetrics(k),
    admission: admissionMetrics(k),
    db: databaseMetrics(k),
    webhooks: webhookMetrics(k),
    ...jobMetrics(k),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const GLOBAL_KEY = Symbol.for("options-research-api.metrics");
type GlobalWithMetrics = typeof globalThis & { [GLOBAL_KEY]?: Metrics };

/** The process's metrics (one registry, whichever bundle asks first creates it). */
export const metrics: Metrics = ((globalThis as GlobalWithMetrics)[GLOBAL_KEY] ??= createMetrics());
