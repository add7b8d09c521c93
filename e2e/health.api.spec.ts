import { expect, test } from "@playwright/test";

test("GET /api/v1/health answers ok with a request id", async ({ request }) => {
  const res = await request.get("/api/v1/health");
  expect(res.status()).toBe(200);
  expect(res.headers()["x-request-id"]).toBeTruthy();
  const body = await res.json();
  expect(body.data.status).toBe("ok");
  expect(typeof body.data.version).toBe("string");
  expect(typeof body.data.uptime).toBe("number");
  expect(typeof body.disclaimer).toBe("string");
});

test("an idle keep-alive connection stays open 65 s (HTTP_KEEP_ALIVE_TIMEOUT_MS), not Node's 5 s", async ({
  request,
}) => {
  // A pooled client that reuses a connection the server has just closed sees ECONNRESET (docs/reliability.md).
  const res = await request.get("/api/v1/health");
  expect(res.headers()["keep-alive"]).toBe("timeout=65");
});

test("an unknown path under /api/v1 is a 404 in family A's error shape", async ({ request }) => {
  const res = await request.get("/api/v1/nope");
  expect(res.status()).toBe(404);
  expect(res.headers()["x-request-id"]).toBeTruthy();
  const body = await res.json();
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error).sort()).toEqual(["code", "message"]);
  expect(body.error.code).toBe("not_found");
  expect(typeof body.error.message).toBe("string");
});
