/** A real HTTP receiver on loopback that records every delivery and verifies it with the published `standardwebhooks` package. */
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** Which of the given secrets verified the delivery (each checked alone), by index. */
  verifiedBy: number[];
  answered: number | null;
}

export type Responder = (r: Received, n: number) => { status: number; body?: string; location?: string } | "hang";

export interface Receiver {
  url: string;
  received: Received[];
  secrets: string[];
  respond: Responder;
  close(): Promise<void>;
}

/** With `tls` the receiver speaks https (the production-mode e2e server delivers only to https targets). */
export async function startReceiver(
  secrets: string[] = [],
  respond: Responder = () => ({ status: 204 }),
  tls?: { key: string; cert: string },
): Promise<Receiver> {
  const hung = new Set<http.ServerResponse>();
  const receiver: Receiver = { url: "", received: [], secrets, respond, close: async () => {} };
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      const verifiedBy = receiver.secrets.flatMap((s, i) => {
        try {
          new Webhook(s).verify(body, headers);
          return [i];
        } catch {
          return [];
        }
      });
      const rec: Received = {
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        body,
        verifiedBy,
        answered: null,
      };
      receiver.received.push(rec);
      const answer = receiver.respond(rec, receiver.received.length);
      if (answer === "hang") {
        hung.add(res);
        return;
      }
      rec.answered = answer.status;
      res
        .writeHead(answer.status, {
          "content-type": "text/plain",
          ...(answer.location ? { location: answer.location } : {}),
        })
        .end(answer.body ?? "ok");
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise((resolve) => {
      for (const r of hung) r.socket?.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A settable clock for the retry schedule. */
export function manualClock(start = new Date()) {
  let t = start.getTime();
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms), set: (d: Date) => void (t = d.getTime()) };
}

export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
