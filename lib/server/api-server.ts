/**
 * The API-only server: the same pipeline as the Next app on a lean Node HTTP server. Scale it horizontally; every
 * process shares one PostgreSQL. Binds its port first (a taken port is one log line and exit 1, before any migration),
 * then starts the gateway; answers 503 until it is ready; drains on SIGTERM/SIGINT (docs/reliability.md).
 */
import { createAdaptorServer } from "@hono/node-server";
import type { Server } from "node:http";
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { withDeadline } from "../db/deadline";
import { appEnv, requireDatabaseUrl } from "../env";
import { errorFields, log } from "../log";
import { drainServer, listenerWith, trackConnections } from "./drain";
import { startGateway, type Gateway } from "./gateway";
import { exitOnUnexpectedErrors } from "./process-guard";
import { missingSecretReason } from "../auth/settings";
import { unavailableResponse } from "./unavailable";
import { METRICS_PATH, serveMetrics } from "./metrics-endpoint";
import { applyHeapGrowing } from "./heap-growing";

const MAX_HEADER_BYTES = 32 * 1024;
/** Of the shutdown grace, the part kept for the shutdown steps after the calls in flight are answered. */
const STEPS_SHARE = 0.4;
/** Kept back from the grace so the process exits 0 before the hard stop. */
const EXIT_MARGIN_MS = 200;

/** Malformed or oversized requests never reach the pipeline: answer them in the contract's error shape. */
function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooBig = err.code === "HPE_HEADER_OVERFLOW";
    const body = JSON.stringify({
      error: {
        code: "invalid_request",
        message: tooBig ? `Request headers exceed ${MAX_HEADER_BYTES} bytes.` : "Malformed HTTP request.",
      },
    });
    const requestId = `req_${randomUUID().replaceAll("-", "")}`;
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export async function runApiServer(): Promise<void> {
  exitOnUnexpectedErrors("api server");
  const env = appEnv();
  applyHeapGrowing(env.API_HEAP_GROWING_PERCENT); // before the engine loads the market: peak RSS (issue 33)
  // Webhook signing secrets are sealed under AUTH_SECRET: in production, as under `next start`, no start without it.
  const noSecret = missingSecretReason();
  if (noSecret) {
    log.error(noSecret);
    process.exit(1);
  }
  const databaseUrl = requireDatabaseUrl();
  const connections = trackConnections();
  let gateway: Gateway | null = null;
  // The benchmark's baseline (BENCH_CONSTANT_ROUTE=1 only): the same server answering constant JSON, no pipeline.
  const constant = process.env.BENCH_CONSTANT_ROUTE === "1";
  const fetch = (req: Request): Response | Promise<Response> => {
    if (constant && new URL(req.url).pathname === "/__bench/constant")
      return Response.json({ ok: true, data: { value: 42 } });
    // Served while the gateway starts too; the cheap test first, so an API call parses no extra URL.
    if (req.url.includes(METRICS_PATH) && new URL(req.url).pathname === METRICS_PATH) return serveMetrics(req);
    if (!gateway) return unavailableResponse(); // starting: bound before the migrations ran
    return gateway.handle(req);
  };
  const server = createAdaptorServer({
    fetch,
    createServer: ((options: object, listener: Parameters<typeof createServer>[1]) =>
      createServer(options, listenerWith(connections, listener as never))) as never,
    serverOptions: { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 30_000, headersTimeout: 10_000 },
  }) as Server;
  server.keepAliveTimeout = env.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  answerClientErrors(server);
  try {
    await listen(server, env.API_PORT, env.HOST);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const reason = e.code === "EADDRINUSE" ? "address already in use" : e.message;
    log.error(`api server cannot listen on ${env.HOST}:${env.API_PORT}: ${reason}`, { code: e.code });
    process.exit(1);
  }
  log.info("api server listening", { url: `http://${env.HOST}:${env.API_PORT}`, pid: process.pid });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const grace = env.SHUTDOWN_GRACE_MS;
    log.info("draining", { signal, in_flight: gateway?.inFlight ?? 0, grace_ms: grace });
    setTimeout(() => {
      log.error("shutdown did not finish within SHUTDOWN_GRACE_MS; exiting", { grace_ms: grace });
      process.exit(1);
    }, grace).unref();
    const settle = (by: number) => gateway?.drain(by) ?? Promise.resolve();
    await drainServer(server, connections, settle, started + grace * (1 - STEPS_SHARE));
    // The steps are bounded one by one; together they get what is left of the grace (the database may be gone).
    const left = Math.max(0, started + grace - EXIT_MARGIN_MS - Date.now());
    await withDeadline(gateway?.close() ?? Promise.resolve(), left, "shutdown steps").catch((err) =>
      log.warn("shutdown steps cut short", errorFields(err)),
    );
    log.info("stopped", { signal, ms: Date.now() - started });
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  try {
    gateway = await startGateway({ databaseUrl, poolMax: Number(process.env.API_POOL_MAX ?? 10) });
  } catch (err) {
    log.error("api server failed to start", errorFields(err));
    process.exit(1);
  }
}
