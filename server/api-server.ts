/**
 * The API-only server: the same pipeline as the Next app on a lean Node HTTP server. Scale it horizontally;
 * every process shares one PostgreSQL. Needs DATABASE_URL.
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import { randomUUID } from "node:crypto";
import { appEnv, requireDatabaseUrl } from "../lib/env";
import { errorFields, log } from "../lib/log";
import { startGateway } from "../lib/server/gateway";

const MAX_HEADER_BYTES = 32 * 1024;

async function main() {
  const env = appEnv();
  const gateway = await startGateway({
    databaseUrl: requireDatabaseUrl(),
    poolMax: Number(process.env.API_POOL_MAX ?? 10),
  });
  // The benchmark's baseline (BENCH_CONSTANT_ROUTE=1 only): the same server answering constant JSON, no pipeline.
  const constant = process.env.BENCH_CONSTANT_ROUTE === "1";
  const fetch = constant
    ? (req: Request) =>
        new URL(req.url).pathname === "/__bench/constant"
          ? Response.json({ ok: true, data: { value: 42 } })
          : gateway.handle(req)
    : gateway.handle;
  const server = serve({
    fetch,
    port: env.API_PORT,
    hostname: env.HOST,
    serverOptions: { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 30_000, headersTimeout: 10_000 },
  }) as Server;
  // Malformed or oversized requests never reach the pipeline: answer them in the contract's error shape.
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
  server.on("listening", () =>
    log.info("api server listening", { url: `http://${env.HOST}:${env.API_PORT}`, pid: process.pid }),
  );
  const shutdown = (signal: string) => {
    log.info("shutting down", { signal });
    server.close(() => void gateway.close().then(() => process.exit(0)));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err) => {
  log.error("api server failed to start", errorFields(err));
  process.exit(1);
});
