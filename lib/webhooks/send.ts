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

export function sendAttempt(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, "latencyMs">): AttemptResult => ({
    ...r,
    latencyMs: Math.round(performance.now() - started),
  });
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const loopbackTarget = options.allowLoopback === true && isLoopbackHost(host);
  if (options.httpsOnly && target.protocol !== "https:" && !loopbackTarget) {
    return Promise.resolve(
      done({
        ok: false,
        statusCode: null,
        excerpt: null,
        error: "refused_address",
        detail: "only https targets are allowed in production",
      }),
    );
  }
  const refused =
    isIP(host) && !loopbackTarget ? (options.allowPrivate ? alwaysRefusedRange(host) : refusedRange(host)) : null;
  if (refused) {
    return Promise.resolve(
      done({
        ok: false,
        statusCode: null,
        excerpt: null,
        error: "refused_address",
        detail: `${host} is a ${refused} address`,
      }),
    );
  }
  const isHttps = target.protocol === "https:";
  const lib = isHttps ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, "latencyMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = lib.request(target, {
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
    const timer = setTimeout(() => {
      req.destroy();
      finish({
        ok: false,
        statusCode: null,
        excerpt: null,
        error: "timeout",
        detail: `no complete answer within ${options.timeoutMs ?? ATTEMPT_TIMEOUT_MS} ms`,
      });
    }, options.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
    req.on("error", (err: NodeJS.ErrnoException) => {
      const refused = err.code === "ERR_WEBHOOK_REFUSED_ADDRESS";
      finish({
        ok: false,
        statusCode: null,
        excerpt: null,
        error: refused ? "refused_address" : "connection_error",
        detail: refused ? err.message : (err.code ?? "connection failed"),
      });
    });
    req.on("response", (res) => {
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
    });
    req.end(body);
  });
}
