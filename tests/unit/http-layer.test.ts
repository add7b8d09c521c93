/** The HTTP layer's pure rules (docs/api-contract.md §11): negotiation, validators, freshness, origins. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { pickEncoding, qualityOf } from "../../lib/api/http/negotiate";
import { cacheControl, entityTag, matchesIfNoneMatch } from "../../lib/api/http/caching";
import { parseOperatorOrigins } from "../../lib/api/http/origins";
import { problemDetails, wwwAuthenticate } from "../../lib/api/http/semantics";
import { normaliseOrigin } from "../../lib/domain/browser-origins";

describe("negotiation", () => {
  it("picks br or gzip by q, br on a tie, none when refused", () => {
    assert.equal(pickEncoding("gzip, deflate, br"), "br");
    assert.equal(pickEncoding("br;q=0.4, gzip;q=0.9"), "gzip");
    assert.equal(pickEncoding("identity"), null);
    assert.equal(pickEncoding("*"), "br");
    assert.equal(pickEncoding("*, br;q=0"), "gzip");
    assert.equal(pickEncoding(null), null);
    assert.equal(qualityOf("text/*;q=0.3", "text/csv"), 0.3);
  });
});

describe("validators and freshness", () => {
  it("a weak tag from status, type and payload; weak comparison; *", () => {
    const tag = entityTag(200, "application/json", '{"a":1}');
    assert.match(tag, /^W\/"[A-Za-z0-9_-]{22}"$/);
    assert.notEqual(tag, entityTag(200, "application/json", '{"a":2}'));
    assert.ok(matchesIfNoneMatch(`"x", ${tag.slice(2)}`, tag));
    assert.ok(matchesIfNoneMatch("*", tag));
    assert.ok(!matchesIfNoneMatch('W/"other"', tag));
    assert.ok(!matchesIfNoneMatch(null, tag));
  });

  it("max-age is the whole seconds to the as-of time plus 5 s, 0 once past; no-cache without market data", () => {
    const now = new Date("2026-11-27T10:00:00.000Z");
    assert.equal(cacheControl(new Date(now.getTime() - 1200), now), "private, max-age=4");
    assert.equal(cacheControl(now, now), "private, max-age=5");
    assert.equal(cacheControl(new Date(now.getTime() - 60_000), now), "private, max-age=0");
    assert.equal(cacheControl(undefined, now), "private, no-cache");
  });
});

describe("status semantics", () => {
  it("WWW-Authenticate says invalid_token only when a key was refused", () => {
    assert.equal(wwwAuthenticate("missing_api_key"), 'Bearer realm="api"');
    assert.equal(wwwAuthenticate("invalid_api_key"), 'Bearer realm="api", error="invalid_token"');
  });

  it("problem details only when named, and only for family B's body", () => {
    const b = { error: { code: "invalid_request", message: "m" }, data: null, dataLabel: "demo" };
    assert.equal(problemDetails("*/*", 400, b, "r"), null);
    assert.equal(problemDetails("application/json, application/problem+json;q=0.5", 400, b, "r"), null);
    assert.equal(problemDetails("application/problem+json", 400, { error: b.error }, "r"), null);
    assert.deepEqual(problemDetails("application/problem+json", 400, b, "r"), {
      type: "urn:options-research:error:invalid_request",
      title: "invalid request",
      status: 400,
      detail: "m",
      instance: "urn:options-research:request:r",
      ...b,
    });
  });
});

describe("origins", () => {
  it("accepts scheme://host[:port] in canonical form and refuses anything else", () => {
    assert.equal(normaliseOrigin("HTTPS://App.Example.com:443/"), "https://app.example.com");
    assert.equal(normaliseOrigin("http://127.0.0.1:4101"), "http://127.0.0.1:4101");
    for (const bad of ["*", "https://*.example.com", "ftp://x.example", "https://x.example/path", "x.example", ""])
      assert.throws(() => normaliseOrigin(bad), /not a browser origin/, bad);
    assert.deepEqual([...parseOperatorOrigins(" https://a.example/ , * ")], ["https://a.example", "*"]);
  });
});
