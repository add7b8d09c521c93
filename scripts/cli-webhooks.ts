/**
 * `cli webhooks listen --forward-to URL [--events …] [--symbols …] [--key svc_test_…] [--api-url URL]`: forwards the
 * test key's stream events to a local URL as signed Standard Webhooks deliveries (lib/domain/webhook-listen.ts). Talks to the
 * running app over HTTP only; the key defaults to the local demo's (DATA_DIR/demo-key.json, written by `npm start`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { appEnv, appUrl } from "../lib/env";
import { DEFAULT_LISTEN_EVENTS, listen } from "../lib/domain/webhook-listen";

export const WEBHOOKS_USAGE = `
  webhooks listen --forward-to http://localhost:PORT/PATH [--events E1,E2] [--symbols S1,S2] [--key svc_test_…] [--api-url URL]`;

type Flag = (name: string) => string | undefined;

function demoKey(): string | undefined {
  const file = join(resolve(appEnv().DATA_DIR), "demo-key.json");
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, "utf8")) as { key?: string }).key;
}

const list = (v: string | undefined) =>
  v
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** Runs until Ctrl-C; a usage problem is returned as a message for the CLI's usage error. */
export async function runWebhooksListen(flag: Flag, usage: (m: string) => Error): Promise<void> {
  const forwardTo = flag("forward-to");
  if (!forwardTo) throw usage("--forward-to is required");
  const key = flag("key") ?? process.env.SERVICE_KEY ?? demoKey();
  if (!key) throw usage("--key svc_test_… is required (no local demo key found)");
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await listen({
    apiBase: (flag("api-url") ?? appUrl()).replace(/\/+$/, ""),
    key,
    forwardTo,
    events: list(flag("events")) ?? DEFAULT_LISTEN_EVENTS,
    symbols: list(flag("symbols")),
    say: (line) => process.stdout.write(`${line}\n`),
    signal: controller.signal,
  });
}
