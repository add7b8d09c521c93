/**
 * The market-data provider's settings (docs/market-data.md "Variables"). Read from the environment on each call, so
 * tests and the CLI can set them per process; the key is returned to the client only, never logged or shown.
 */
import { z } from "zod";

export const MASSIVE_DEFAULT_BASE_URL = "https://api.massive.com";
/** The vendor's S3-compatible flat-file endpoint (bucket `flatfiles`). */
export const MASSIVE_DEFAULT_FLATFILES_URL = "https://files.massive.com";

const schema = z.object({
  MARKET_DATA_PROVIDER: z.enum(["massive"]).optional(),
  MASSIVE_API_KEY: z.string().min(1).optional(),
  MASSIVE_BASE_URL: z.string().url().default(MASSIVE_DEFAULT_BASE_URL),
  /** Comma-separated symbols to keep fresh; default the live instruments table's symbols. */
  MARKET_DATA_SYMBOLS: z.string().optional(),
  TREASURY_CSV_URL: z.string().url().optional(),
  /** Operator overrides of the schedule: "kind=cron;kind=cron" (lib/market/sync-schedule.ts). */
  MARKET_DATA_CRON: z.string().optional(),
  /** Most contracts per underlying whose prints the trades job reads (by day volume); default 50. */
  MARKET_DATA_TRADES_CONTRACTS: z.coerce.number().int().min(1).max(5000).default(50),
  /** Flat files (docs/market-data.md "Trades from the flat file"): the S3 endpoint and its own keys, not the REST key. */
  MASSIVE_FLATFILES_URL: z.string().url().default(MASSIVE_DEFAULT_FLATFILES_URL),
  MASSIVE_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MASSIVE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** The region the S3 signature names; S3-compatible endpoints take us-east-1 unless their documentation says otherwise. */
  MASSIVE_S3_REGION: z.string().min(1).default("us-east-1"),
});

export type SyncConfig = z.infer<typeof schema>;

export function syncConfig(env: NodeJS.ProcessEnv = process.env): SyncConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid environment: ${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/** Symbols named in a list ("AAPL, msft"), upper-cased, de-duplicated; null for none. */
export function parseSymbolList(list: string | undefined): string[] | null {
  const symbols = [
    ...new Set(
      (list ?? "")
        .split(",")
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
  for (const s of symbols)
    if (!/^[A-Z]{1,6}([.-][A-Z]{1,2})?$/.test(s))
      throw new Error(`"${s}" is not a symbol (^[A-Z]{1,6}([.-][A-Z]{1,2})?$)`);
  return symbols.length ? symbols : null;
}
