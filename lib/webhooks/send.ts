/**
 * One HTTP attempt: POST the signed body, never follow a redirect, read at most 4 kB of the answer, give up after 15 s.
 * Unless private targets are allowed, the address actually connected to must pass the SSRF rules.
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import {
  alwaysRefusedRange,
  guardedLookup,
  isLoopbackHost,
  refusedRange,
  systemResolver,
  type Resolver,
} from "./address-policy";
import { ATTEMPT_TIMEOUT_MS, MAX_RESPONSE_BYTES, RESPONSE_EXCERPT_CHARS } from "./schedule";

export type AttemptError = "timeout" | "refused_address" | "connection_error" | "redirect" | "http_status";

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  excerpt: string | null;
  error: AttemptError | null;
  /** Human-readable detail of a failure (never a secret). */
  detail?: string;
}

export interface SendOptions {
  allowPrivate: boolean;
  /** Production: a plain http URL (registered elsewhere, or before) is refused at delivery too. */
  httpsOnly?: boolean;
  /** A test webhook on a loopback server: loopback targets pass, over http too (nothing else private does). */
  allowLoopback?: boolean;
  resolver?: Resolver;
  timeoutMs?: number;
  agents?: { http: http.Agent; https: https.Agent };
}

export function createAgents() {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  };
}

/** An attempt's result before its latency is known. */
type Outcome = Omit<AttemptResult, "latencyMs">;

const failure = (error: AttemptError, detail: string): Outcome => ({
  ok: false,
  statusCode: null,
  excerpt: null,
  error,
  detail,
});

/** The refusal of a target that may not be sent to (plain http in production, a refused IP literal), else null. */
function addressRefusal(target: URL, host: string, loopbackTarget: boolean, options: SendOptions): Outcome | null {
  if (options.httpsOnly && target.protocol !== "https:" && !loopbackTarget)
    return failure("refused_address", "only https targets are allowed in production");
  const refused =
    isIP(host) && !loopbackTarget ? (options.allowPrivate ? alwaysRefusedRange(host) : refusedRange(host)) : null;
  return refused ? failure("refused_address", `${host} is a ${refused} address`) : null;
}

/** The POST, on the caller's agents, connecting only to addresses the SSRF rules let through. */
function postRequest(
  target: URL,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
  loopbackTarget: boolean,
): http.ClientRequest {
  const isHttps = target.protocol === "https:";
  return (isHttps ? https : http).request(target, {
    method: "POST",
    headers: {
      ...headers,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "user-agent": "options-research-webhooks/1",
    },
    agent: options.agents ? (isHttps ? options.agents.https : options.agents.http) : undefined,
    lookup: guardedLookup(options.resolver ?? systemResolver, {
      allowPrivate: options.allowPrivate,
      allowLoopback: loopbackTarget,
    }),
  });
}

/** Reads at most 4 kB of the answer, then concludes: a 2xx is a success, a 3xx a redirect, anything else a failure. */
function readAnswer(res: http.IncomingMessage, finish: (r: Outcome) => void): void {
  const status = res.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let size = 0;
  const conclude = () => {
    const excerpt = Buffer.concat(chunks)
      .subarray(0, MAX_RESPONSE_BYTES)
      .toString("utf8")
      .slice(0, RESPONSE_EXCERPT_CHARS);
    const ok = status >= 200 && status < 300;
    finish({
      ok,
      statusCode: status,
      excerpt,
      error: ok ? null : status >= 300 && status < 400 ? "redirect" : "http_status",
    });
  };
  res.on("data", (c: Buffer) => {
    chunks.push(c);
    size += c.length;
    if (size >= MAX_RESPONSE_BYTES) {
      conclude();
      res.destroy(); // read no further than 4 kB
    }
  });
  res.on("end", conclude);
  res.on("error", () => conclude());
}

export function sendAttempt(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Outcome): AttemptResult => ({ ...r, latencyMs: Math.round(performance.now() - started) });
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const loopbackTarget = options.allowLoopback === true && isLoopbackHost(host);
  const refusal = addressRefusal(target, host, loopbackTarget, options);
  if (refusal) return Promise.resolve(done(refusal));
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = postRequest(target, headers, body, options, loopbackTarget);
    const timer = setTimeout(() => {
      req.destroy();
      finish(failure("timeout", `no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on("error", (err: NodeJS.ErrnoException) => {
      const refused = err.code === "ERR_WEBHOOK_REFUSED_ADDRESS";
      finish(
        refused
          ? failure("refused_address", err.message)
          : failure("connection_error", err.code ?? "connection failed"),
      );
    });
    req.on("response", (res) => readAnswer(res, finish));
    req.end(body);
  });
}
