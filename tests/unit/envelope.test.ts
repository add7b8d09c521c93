/** The success envelope in parts (lib/api/envelope.ts): its size without the joined text, and the same text as before. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { successBody, successJson, successText, type ServedMeta } from "../../lib/api/envelope";

const meta = (over: Partial<ServedMeta> = {}): ServedMeta => ({
  path: "/api/v1/ticker/AAPL/summary",
  planName: "Sandbox",
  env: "test",
  label: "demo",
  requestId: "req_1",
  now: new Date("2026-11-24T05:00:00.000Z"),
  ...over,
});

describe("successBody", () => {
  const payloads: unknown[] = [
    { symbol: "AAPL", last: 189.5, note: "Ünïcödé — 株価 📈" },
    [1, 2, 3],
    "a string payload",
    null,
    42,
  ];
  for (const family of ["A", "B"] as const)
    for (const data of payloads)
      it(`family ${family}, ${JSON.stringify(data)}: bytes is the joined text's UTF-8 length; the text parses`, () => {
        const m = meta({ planName: "Plän ✓", path: "/api/v1/ticker/BRK.B/summary" });
        const body = successBody(family, data, m);
        const text = successText(body);
        assert.equal(body.bytes, Buffer.byteLength(text, "utf8"));
        assert.equal(text, successJson(family, data, m));
        const parsed = JSON.parse(text);
        assert.deepEqual(parsed.data, data);
        if (family === "A") assert.equal(parsed.meta.plan, "Plän ✓");
        else assert.equal(parsed.timestamp, "2026-11-24T05:00:00.000Z");
      });

  it("a memoised payload answers the same size again (its serialisation is kept per object)", () => {
    const data = { s: "€".repeat(10) };
    const a = successBody("A", data, meta());
    const b = successBody("A", data, meta());
    assert.equal(a.data, b.data);
    assert.equal(a.bytes, b.bytes);
    assert.equal(a.bytes, Buffer.byteLength(successText(a)));
  });
});
