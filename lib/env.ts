import { z } from "zod";

const envSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  API_PORT: z.coerce.number().int().min(1).max(65535).default(3001),
  HOST: z.string().default("127.0.0.1"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  DEMO_SEED: z.string().min(1).default("options-research-demo-v1"),
  /** How long a verified key stays cached in a process; revocation takes effect within this time. */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(4000),
  /** How often a process re-reads licensing states and the plan catalogue. */
  CONFIG_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(4000),
  DEMO_TICKER: z.enum(["on", "off"]).default("on"),
  DATA_DIR: z.string().default(".data"),
  /** Most calls one admission transaction decides (group commit, issue 9). */
  ADMISSION_BATCH_MAX: z.coerce.number().int().min(1).max(10_000).default(256),
  /** Most calls a process queues behind the admission transaction in flight; more are refused with 503 at once. */
  ADMISSION_QUEUE_MAX: z.coerce.number().int().min(1).max(100_000).default(4096),
  /** Admission transactions a process keeps in flight at once (each decides one batch). */
  ADMISSION_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(2),
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

export function requireDatabaseUrl(): string {
  const url = appEnv().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (postgres://user@host:port/db)");
  return url;
}
