/** Structured JSON logs, one object per line on stdout; keys and secrets are never passed in. */
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

let threshold = ORDER[(process.env.LOG_LEVEL as Level) ?? "info"] ?? ORDER.info;

export function setLogLevel(level: Level | "silent"): void {
  threshold = ORDER[level];
}

let sink: ((line: string, level: Level) => void) | null = null;

/** Where log lines go instead of stdout/stderr (the tests' in-process route harness reads them); null: back to stdout. */
export function setLogSink(to: ((line: string, level: Level) => void) | null): void {
  sink = to;
}

// Defence in depth: anything that looks like an API key is masked even if a caller forgets.
const KEY_PATTERN = /svc_(?:test|live|sk_live)_[0-9A-Za-z]{4}[0-9A-Za-z]+/g;

function emit(level: Level, msg: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  const safe = line.replace(KEY_PATTERN, (k) => `${k.slice(0, k.lastIndexOf("_") + 5)}…`);
  if (sink) sink(safe, level);
  else (level === "error" || level === "warn" ? process.stderr : process.stdout).write(safe + "\n");
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => emit("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => emit("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => emit("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => emit("error", msg, fields),
  enabled: (level: Level) => ORDER[level] >= threshold,
};

export function errorFields(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { error: String(err) };
  // Query builders wrap the driver's error: the cause carries the database's own message and code.
  const cause =
    err.cause instanceof Error ? { cause: err.cause.message, cause_code: (err.cause as { code?: string }).code } : {};
  return {
    error: withoutParams(err.message).slice(0, 500),
    error_name: err.name,
    ...cause,
    stack: err.stack && withoutParams(err.stack),
  };
}

/** Query builders append the bound parameters to their messages; those can be secrets, so they never reach the log. */
function withoutParams(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, "\nparams: [redacted]");
}
