/**
 * The `webhooks listen` command the portal's webhooks page shows, filled in with the user's own values: the app's
 * origin, the events and symbols of their test webhooks (the defaults when they have none), and which test key.
 */
export const LISTEN_DEFAULT_EVENTS = ["no_trade.decision_changed", "flow.sweep", "flow.block", "flow.unusual"];
/** The iv_* events need a threshold the listen command does not take: the stream's own filters leave them out. */
const LISTENABLE = /^(no_trade\.|flow\.)/;

export interface ListenCommandInput {
  origin: string;
  /** The test key's display prefix (the full key is shown once, at creation); null when the account has none. */
  keyPrefix: string | null;
  webhooks: { environment: "test" | "live"; events: string[]; symbols: string[]; status: string }[];
  port?: number;
}

export function listenCommand(input: ListenCommandInput): string {
  const test = input.webhooks.filter((w) => w.environment === "test" && w.status !== "deleted");
  const events = [...new Set(test.flatMap((w) => w.events).filter((e) => LISTENABLE.test(e)))];
  const symbols = [...new Set(test.flatMap((w) => w.symbols))].slice(0, 50);
  const parts = [
    "npm run -s cli -- webhooks listen",
    `--forward-to http://localhost:${input.port ?? 4242}/webhooks`,
    `--events ${(events.length > 0 ? events : LISTEN_DEFAULT_EVENTS).join(",")}`,
    ...(symbols.length > 0 ? [`--symbols ${symbols.join(",")}`] : []),
    `--key ${input.keyPrefix ? `${input.keyPrefix}…` : "svc_test_…"}`,
    `--api-url ${input.origin}`,
  ];
  return parts.join(" \\\n  ");
}
