/**
 * The stream benchmark's reference (its "constant route"; forked by bench/stream.ts): a bare node:http server that holds
 * every `GET` open as text/event-stream and, on `{ burst: n }` from the parent, writes each open response the same n
 * events as one shared chunk, in the hub's byte format (the same fields, labels and disclaimer), with no database, key,
 * filter or metering. Measured with the same client processes, it is what moving those bytes costs on this machine; the
 * product's figure is read against it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { DISCLAIMER } from "../lib/contract/disclaimer";

const open = new Set<http.ServerResponse>();
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform" });
  res.write(": stream open\n\n");
  open.add(res);
  res.on("close", () => open.delete(res));
});
let row = 0;

/** The events as the hub encodes the flow.block rows bench/stream.ts stores with these payloads. */
function burst(payloads: Record<string, unknown>[]): Buffer {
  const frames: string[] = [];
  for (const payload of payloads) {
    row++;
    const e = {
      id: `${row}.0`,
      type: "flow.block",
      symbol: "AAPL",
      timestamp: new Date().toISOString(),
      data: { ...payload, environment: "test", isMockData: true, dataLabel: "demo", disclaimer: DISCLAIMER },
    };
    frames.push(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  }
  return Buffer.from(frames.join(""));
}

process.on("message", (m: unknown) => {
  if (m && typeof m === "object" && "burst" in m) {
    const bytes = burst((m as { burst: Record<string, unknown>[] }).burst);
    for (const res of open) res.write(bytes);
  } else if (m === "stop") {
    for (const res of open) res.destroy();
    server.close();
    process.exit(0);
  }
});
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
