/**
 * GET /api/v1/stream through `next start` (the e2e server, e2e/serve.mjs → scripts/start.ts → next start, on the
 * embedded database): an event arrives with an id; a client that reconnects with Last-Event-ID gets the event stored
 * while it was away, then the live one, and none twice. The stream holds a lease (stream_leases) while it is open, and
 * leaving frees it.
 */
import { expect, request as newRequest, test } from "@playwright/test";
import { e2eDatabase } from "../tests/helpers/e2e-env";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { openSse, storeFlowEvent, uniqueStreamSymbol } from "../tests/helpers/sse";

test("the live stream under next start: ids, Last-Event-ID resumes with the next event and no duplicate", async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const portal = await newRequest.newContext({ baseURL });
  await signUpAndSignIn(portal, baseURL);
  const created = await portal.post("/api/portal/keys", {
    data: { name: "stream e2e", env: "test" },
    headers: portalOrigin(baseURL),
  });
  expect(created.status()).toBe(201);
  const { id: keyId, key } = (await created.json()).data as { id: string; key: string };
  const symbol = uniqueStreamSymbol();
  const q = `events=flow.block&symbols=${symbol}`;
  const sql = e2eDatabase();
  let n = 0;
  const flow = () => storeFlowEvent(sql, symbol, "block", 100_000 * ++n, `e2e:${symbol}:${n}`);
  const leases = async () =>
    (
      await sql<{ n: number }[]>`
        select count(*)::int as n from stream_leases where key_id = ${keyId} and expires_at > clock_timestamp()`
    )[0].n;
  try {
    const base = baseURL ?? "http://127.0.0.1:3100";
    const s1 = await openSse(base, key, q);
    expect(s1.res.status).toBe(200);
    expect(s1.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await s1.waitFor("the stream to open", () => s1.comments.includes(": stream open"));
    expect(await leases()).toBe(1);
    await new Promise((r) => setTimeout(r, 1500)); // the hub has its cursor
    const first = await flow();
    await s1.waitFor("the first event", () => s1.events.length >= 1, 15_000);
    const [e1] = s1.events;
    expect(e1.event).toBe("flow.block");
    expect(e1.id).toMatch(/^\d+\.0$/);
    expect((e1.data as { id: string; data: { id: string } }).id).toBe(e1.id);
    expect((e1.data as { data: { id: string } }).data.id).toBe(first);
    s1.close();

    // Stored while the client is away: it comes first on reconnection, then the live one; the first never again.
    const second = await flow();
    const s2 = await openSse(base, key, q, e1.id as string);
    expect(s2.res.status).toBe(200);
    await s2.waitFor("the stored event", () => s2.events.length >= 1, 15_000);
    const third = await flow();
    await s2.waitFor("the live event", () => s2.events.length >= 2, 15_000);
    await new Promise((r) => setTimeout(r, 1000)); // nothing more comes
    expect(s2.events.map((e) => (e.data as { data: { id: string } }).data.id)).toEqual([second, third]);
    const ids = [e1, ...s2.events].map((e) => e.id);
    expect(new Set(ids).size).toBe(3);
    const rows = ids.map((id) => Number(String(id).split(".")[0]));
    expect(rows[1]).toBeGreaterThan(rows[0]);
    expect(rows[2]).toBeGreaterThan(rows[1]);
    s2.close();

    // The first stream's lease went when its client left; the second's goes now.
    for (let waited = 0; (await leases()) > 0 && waited < 5000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    expect(await leases()).toBe(0);
  } finally {
    await sql.end();
    await portal.dispose();
  }
});
