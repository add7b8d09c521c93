/**
 * Safe retries end to end: an idempotent POST whose answer is lost after the server processed it is retried by the
 * client with the same Idempotency-Key, and the server replays the first answer (Idempotent-Replayed: true): one
 * resource, metered once; the same key with a different body is 422 idempotency_key_reused.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ApiError, createClient } from "../../clients/typescript/src/index";
import { startClientsServer, type ClientsServer } from "../helpers/clients-server";

let s: ClientsServer;
let replays = false;

const alert = (n: number) => ({
  url: `http://127.0.0.1:9/orders/${n}`,
  events: ["no_trade.decision_changed" as const],
  symbols: ["AAPL"],
});

before(async () => {
  s = await startClientsServer("clientsidem", { market: false });
  replays = await probeReplay(s.baseUrl, s.proKey);
});
after(async () => {
  await s?.stop();
});

/** Two POSTs with one Idempotency-Key: a server with the support answers the second with Idempotent-Replayed. */
async function probeReplay(baseUrl: string, key: string): Promise<boolean> {
  const idem = `probe-${Date.now()}`;
  const send = async () => {
    const res = await fetch(`${baseUrl}/api/v1/alerts`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idem },
      body: JSON.stringify(alert(0)),
    });
    await res.text();
    return res.headers.get("idempotent-replayed");
  };
  await send();
  return (await send()) === "true";
}

const NO_REPLAY = "the server answers a retried POST with Idempotent-Replayed: true";

/** A proxy in front of the server that drops the connection after the server answered the first POST. */
async function droppingProxy(target: string) {
  let posts = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k)),
      ) as Record<string, string>;
      const upstream = await fetch(target + req.url, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (req.method === "POST" && ++posts === 1) {
        req.socket.destroy(); // processed upstream, answer lost on the way back
        return;
      }
      res.writeHead(upstream.status, Object.fromEntries(upstream.headers)).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe("TypeScript client: idempotent retries against the server", () => {
  it("a POST whose answer was lost is retried with the same key: one resource, metered once", async () => {
    assert.ok(replays, NO_REPLAY);
    const proxy = await droppingProxy(s.baseUrl);
    try {
      const count = async () =>
        (
          await s.t.sql<{ n: number }[]>`select count(*)::int as n from usage_events
            where account_id = ${s.proAccountId} and endpoint_id = 'POST /api/v1/alerts' and status = 201`
        )[0].n;
      const before = await count();
      const api = createClient({ apiKey: s.proKey, baseUrl: proxy.url });
      const created = await api.createAlert(alert(1));
      assert.equal(created.status, 201);
      const listed = (await createClient({ apiKey: s.proKey, baseUrl: s.baseUrl }).listAlerts()).data.webhooks;
      assert.equal(listed.filter((w) => w.url === alert(1).url).length, 1, "one webhook created");
      assert.equal(await count(), before + 1, "metered once");
    } finally {
      await proxy.close();
    }
  });

  it("the same Idempotency-Key with a different body is 422 idempotency_key_reused", async () => {
    assert.ok(replays, NO_REPLAY);
    const api = createClient({ apiKey: s.proKey, baseUrl: s.baseUrl });
    await api.createAlert(alert(2), { idempotencyKey: "reuse-1" });
    await assert.rejects(
      api.createAlert(alert(3), { idempotencyKey: "reuse-1" }),
      (e) => e instanceof ApiError && e.status === 422 && e.code === ("idempotency_key_reused" as string),
    );
  });

  it("a retry that meets the first call still running (409) waits and gets the first answer", async () => {
    assert.ok(replays, NO_REPLAY);
    const api = createClient({ apiKey: s.proKey, baseUrl: s.baseUrl, maxRetries: 4 });
    const [a, b] = await Promise.all([
      api.createAlert(alert(4), { idempotencyKey: "concurrent-1" }),
      api.createAlert(alert(4), { idempotencyKey: "concurrent-1" }),
    ]);
    assert.equal(a.data.webhookId, b.data.webhookId, "both calls get the one webhook");
  });
});
