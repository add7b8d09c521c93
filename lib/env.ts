import { z } from "zod";

const envSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  /**
   * The role that owns the schema and runs migrations (docs/security.md); DATABASE_URL is then a member of ora_app that
   * cannot alter or empty audit_log. Unset: migrations run on DATABASE_URL's role when it can apply them.
   */
  DATABASE_OWNER_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  API_PORT: z.coerce.number().int().min(1).max(65535).default(3001),
  HOST: z.string().default("127.0.0.1"),
  /**
   * How long an idle keep-alive connection stays open (both servers). Longer than the idle timeout of the client or
   * proxy in front (60 s at most load balancers), so the client, not the server, ends an idle connection: a server that
   * closes first races a request the client is writing on it, which then sees a reset (ECONNRESET).
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(65_000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  DEMO_SEED: z.string().min(1).default("options-research-demo-v1"),
  /**
   * How long a verified key stays cached in a process: a revocation, roll or deactivation made through another process
   * takes effect within this time; one made through this process at once (lib/keys/standing.ts).
   */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(4000),
  /** How often a process re-reads licensing states and the plan catalogue. */
  CONFIG_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(4000),
  /** Memory for rendered history answers in a process (MiB of answer text; 0 switches the cache off). */
  HISTORY_CACHE_MB: z.coerce.number().min(0).max(1024).default(16),
  /**
   * How long a kept history answer is used before its range's version is read again (0: on every call): the most a
   * snapshot write waits to show in a history answer (docs/api-contract.md §7).
   */
  HISTORY_CACHE_CHECK_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  DEMO_TICKER: z.enum(["on", "off"]).default("on"),
  /**
   * The demo clock reads this instant (ISO 8601 with a zone) at DEMO_CLOCK_FROM and runs in real time from it: the demo
   * market as at another time of day or week, e.g. a Saturday morning (lib/market/demo-wall-clock.ts). Unset: wall time.
   */
  DEMO_CLOCK_AT: z.iso.datetime({ offset: true }).optional(),
  /** The wall-clock instant at which the demo clock reads DEMO_CLOCK_AT (default: when the process starts its clock). */
  DEMO_CLOCK_FROM: z.iso.datetime({ offset: true }).optional(),
  DATA_DIR: z.string().default(".data"),
  // Portal: accounts and sign-in (README "Portal: accounts and sign-in").
  /** Signs the session cookies; required in production (`npm start` generates one in the data directory). */
  AUTH_SECRET: z.string().min(16).optional(),
  /** GitHub OAuth switches on when both are set. */
  AUTH_GITHUB_ID: z.string().min(1).optional(),
  AUTH_GITHUB_SECRET: z.string().min(1).optional(),
  /** Local HTTP only: cookies without the Secure flag under `next start`. */
  AUTH_INSECURE_COOKIES: z.enum(["true", "false"]).optional(),
  /** Outgoing mail (smtp://user:pass@host:port or smtps://…); without it, mail links are written to the server log. */
  SMTP_URL: z.string().url().optional(),
  /** Production only: "on" lets mail links go to the server log when SMTP_URL is not set (otherwise the server refuses to start). */
  MAIL_TO_LOG: z.enum(["on", "off"]).optional(),
  MAIL_FROM: z.string().min(3).default("Options Research API <no-reply@localhost>"),
  /** How many reverse proxies stand in front of the app; 0 (default) takes the client address from the socket. */
  TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
  /** The portal's public origin, used in the links that mails carry (never taken from a request's Host header). */
  /** on: `npm start` creates and prints the demo account and key; default on for the embedded database only. */
  DEMO_ACCOUNT: z.enum(["on", "off"]).optional(),
  APP_URL: z.string().url().optional(),
  /** Development and tests only: let webhooks reach private, loopback and link-local addresses, and plain http. */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  /**
   * How long a worker holds a claimed delivery before another process may retry it (≥ the 15 s attempt timeout in
   * production).
   */
  WEBHOOKS_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /** Deliveries in flight at once per process. */
  WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(32),
  NODE_ENV: z.string().optional(),
  /**
   * Browser origins (comma-separated, or `*`) whose pages may call every API route, besides those each account lists
   * in the portal (docs/api-contract.md §11).
   */
  CORS_ORIGINS: z.string().optional(),
  /** Most calls one admission batch (one admit_batch call) decides (group commit). */
  ADMISSION_BATCH_MAX: z.coerce.number().int().min(1).max(10_000).default(256),
  /** Most calls a process queues behind the admission batches in flight; more are refused with 503 at once. */
  ADMISSION_QUEUE_MAX: z.coerce.number().int().min(1).max(100_000).default(4096),
  /**
   * Admission batches a process keeps in flight at once (each one admit_batch call). 1 measured best with the
   * one-round-trip
   * function: batches share the keys' counter rows, so more in flight mostly wait on each other's locks.
   */
  ADMISSION_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * Admission gather window (µs): a batch starts no sooner than this after the previous one, so that under load it
   * carries more calls (lib/api/admission.ts). A call after a quiet spell is not delayed. 0 turns it off; 2000
   * measured about half the PostgreSQL CPU per call at 2,000-4,000 req/s (docs/scaling.md).
   */
  ADMISSION_GATHER_US: z.coerce.number().int().min(0).max(20_000).default(2000),
  /**
   * Longest a request waits on the database (admission batch, key, plan and licensing reads, portal reads); past it the
   * call answers 503 data_source_unavailable with Retry-After. Also the driver's connect timeout (docs/reliability.md).
   */
  DB_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /**
   * The standalone API server's old-generation growing factor, as 1 + percent/100 (lib/server/heap-growing.ts,
   * docs/operations.md "Memory of the standalone server"); 0 leaves V8's own schedule (up to 4 × under load).
   */
  API_HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(1000).default(200),
  /** How long a server drains on SIGTERM/SIGINT before it answers what is still in flight with 503 and exits. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  /**
   * The bearer token a Prometheus scraper sends to GET /metrics (docs/operations.md "Metrics"); unset, /metrics answers
   * 404. At least 16 characters.
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Days of usage_events kept; older daily partitions are dropped whole. */
  USAGE_EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
});

export type AppEnv = z.infer<typeof envSchema>;

let cached: AppEnv | undefined;

/** Parses process.env once; a bad value stops the process with a one-line reason. */
export function appEnv(): AppEnv {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid environment: ${issue.path.join(".")}: ${issue.message}`);
  }
  cached = parsed.data;
  return cached;
}

/** Reads process.env again on the next appEnv() (tests that set variables after something already read them). */
export function reloadAppEnv(): void {
  cached = undefined;
}

/** The origin links in mails point to: APP_URL, else this machine on PORT. */
export function appUrl(): string {
  const env = appEnv();
  return (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
}

export function requireDatabaseUrl(): string {
  const url = appEnv().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (postgres://user@host:port/db)");
  return url;
}
