/**
 * Each pipeline stage (lib/api/stages/) alone, with fakes for what it depends on: the route resolves or answers 404/405,
 * credentials answer 401 unmetered and refuse a known inactive key through admission, the body bound refuses with 413,
 * the licensing gate refuses, a refusal takes its burst unit without the quota and turns 429 once the minute is spent,
 * the handler's failures become the API's errors, and an admitted call is answered with its windows' headers.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import type { GatewayConfig, Plan } from "../../lib/api/config-cache";
import { actAs } from "../../lib/api/delegation";
import type { KeyRecord } from "../../lib/api/credentials";
import { ApiError, IDEMPOTENCY_ERRORS, KEYED_ROUTE_ERRORS } from "../../lib/api/errors";
import type { AdmissionCall, LimitOutcome } from "../../lib/api/limits";
import type { HandlerResult, RouteDef } from "../../lib/api/route";
import { createRouter } from "../../lib/api/router";
import { admitAndAnswer } from "../../lib/api/stages/admit";
import { authenticateCall } from "../../lib/api/stages/authenticate";
import { type Call, type KeyedCall, keyedCall, type StageDeps } from "../../lib/api/stages/call";
import { execute } from "../../lib/api/stages/execute";
import { claimIdempotency } from "../../lib/api/stages/idempotency";
import { checkLicensing } from "../../lib/api/stages/licensing";
import { readCallBody } from "../../lib/api/stages/read-body";
import { refuse } from "../../lib/api/stages/refuse";
import { resolveRoute } from "../../lib/api/stages/resolve-route";
import { DomainError } from "../../lib/domain/errors";
import { licensingPreview } from "../../lib/server/admin-licensing-preview";
import { generateKey } from "../../lib/keys/format";

const NOW = new Date("2026-11-27T10:00:30Z");
const plan: Plan = {
  id: "sandbox",
  nameA: "Sandbox",
  nameB: "Free Sandbox",
  aPerMinute: 10,
  aPerMonth: 100,
  bPerMinute: 5,
  bPerDay: 100,
  bMaxPayloadBytes: 16,
  webhooks: false,
  dataEntitlement: "demo",
  liveKeyStyles: [],
  historyDays: 30,
  streamsPerKey: 2,
  features: { id: "sandbox", nameA: "Sandbox", nameB: "Free Sandbox" },
};

function route(over: Partial<RouteDef> = {}): RouteDef {
  return {
    id: "POST /api/v1/things/{name}",
    operationId: "postThing",
    method: "POST",
    path: "/api/v1/things/{name}",
    family: "B",
    envelope: "B",
    summary: "",
    description: "",
    tags: [],
    authenticated: true,
    body: z.object({ n: z.number() }),
    response: z.object({ ok: z.boolean() }),
    errors: [...KEYED_ROUTE_ERRORS, ...IDEMPOTENCY_ERRORS, "payload_too_large"],
    handler: (): HandlerResult => ({ data: { ok: true } }),
    ...over,
  };
}

const config = (licensing: "enabled" | "pending_licensing" = "enabled"): GatewayConfig => ({
  plans: new Map([["sandbox", plan]]),
  testPlans: new Map([["sandbox", plan]]),
  licensing: new Map([["POST /api/v1/things/{name}|test", licensing]]),
});

/** A fake admission batch: answers `limited` and records the calls it was asked to decide. */
function admission(limited: LimitOutcome["limited"] = null) {
  const calls: AdmissionCall[] = [];
  return {
    calls,
    admit: async (c: AdmissionCall): Promise<LimitOutcome> => {
      calls.push(c);
      return { limited, status: limited === "burst" ? 429 : c.status, burstUsed: 5, quotaUsed: 1 };
    },
  };
}

function deps(over: Partial<StageDeps> = {}): StageDeps {
  return {
    database: {} as StageDeps["database"], // no stage under test here reaches the database
    engine: {} as StageDeps["engine"],
    verifier: { lookup: () => null },
    config: { get: () => config() },
    admission: admission(),
    match: createRouter([route()]),
    clock: () => NOW,
    touch: () => {},
    streams: () => {
      throw new Error("no stage under test here opens a stream");
    },
    ...over,
  };
}

const request = (init: RequestInit & { path?: string } = {}) =>
  new Request(`http://x${init.path ?? "/api/v1/things/a"}`, { method: "POST", ...init });

async function resolved(init: RequestInit & { path?: string } = {}, d = deps()): Promise<Call> {
  const req = request(init);
  const call = await resolveRoute({ request: req, url: new URL(req.url), started: 0 }, d);
  assert.ok(!(call instanceof Response));
  return call;
}

/** A key's record as the verifier answers it: an active Sandbox test key of the caller's account, unless told. */
const keyRecord = (over: Partial<KeyRecord> = {}): KeyRecord => ({
  id: "k1",
  accountId: "00000000-0000-0000-0000-000000000001",
  env: "test",
  style: "standard",
  status: "active",
  accountStatus: "active",
  planId: "sandbox",
  prefix: "svc_test_abcd",
  expiresAt: null,
  ...over,
});

const caller = {
  keyId: "k1",
  accountId: "00000000-0000-0000-0000-000000000001",
  env: "test" as const,
  style: "standard" as const,
  keyPrefix: "svc_test_x",
  plan,
};
const keyed = async (init: RequestInit & { path?: string } = {}, licensing?: "pending_licensing") =>
  keyedCall(await resolved(init), config(licensing), caller);
const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe("resolveRoute", () => {
  it("answers a call for a known route, 404 for an unknown path, 405 with Allow for another method", async () => {
    const call = await resolved({ path: "/api/v1/things/a/" });
    assert.equal(call.path, "/api/v1/things/a");
    assert.deepEqual(call.rawParams, { name: "a" });
    const d = deps();
    const missing = await resolveRoute(
      { request: request({ path: "/api/v1/nope" }), url: new URL("http://x/api/v1/nope"), started: 0 },
      d,
    );
    assert.ok(missing instanceof Response);
    assert.equal(missing.status, 404);
    const get = new Request("http://x/api/v1/things/a");
    const wrong = await resolveRoute({ request: get, url: new URL(get.url), started: 0 }, d);
    assert.ok(wrong instanceof Response);
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "POST");
  });
});

describe("authenticateCall", () => {
  it("no key and an unknown key answer 401 and are not metered", async () => {
    const a = admission();
    const none = await authenticateCall(await resolved(), deps({ admission: a }));
    assert.ok(none instanceof Response);
    assert.equal(await codeOf(none), "missing_api_key");
    const unknown = await authenticateCall(
      await resolved({ headers: { authorization: `Bearer ${generateKey("test").key}` } }),
      deps({ admission: a }),
    );
    assert.ok(unknown instanceof Response);
    assert.equal(await codeOf(unknown), "invalid_api_key");
    assert.equal(a.calls.length, 0);
  });

  it("an inactive known key is refused through admission (a burst unit, no quota)", async () => {
    const key = generateKey("test");
    const record = keyRecord({ status: "inactive", prefix: key.prefix });
    const a = admission();
    const res = await authenticateCall(
      await resolved({ headers: { authorization: `Bearer ${key.key}` } }),
      deps({ admission: a, verifier: { lookup: (d) => (d === key.digest ? record : null) } }),
    );
    assert.ok(res instanceof Response);
    assert.equal(res.status, 403);
    assert.equal(await codeOf(res), "inactive_key");
    assert.equal(a.calls.length, 1);
    assert.equal(a.calls[0].quotaChecked, false);
    assert.equal(a.calls[0].errorCode, "inactive_key");
    assert.equal(a.calls[0].m.errorMessage, "This API key or its account is deactivated.");
    assert.match(a.calls[0].refusedMessages?.burst ?? "", /^Per-minute limit of 5 requests reached/);
    assert.equal(a.calls[0].refusedMessages?.quota, null, "the quota is not checked, so it cannot refuse");
    assert.equal(res.headers.get("x-ratelimit-remaining"), "0");
  });

  it("a request the portal marked acts as its key by id; the header's key, or none, is not read", async () => {
    const record = keyRecord();
    const byId = {
      lookup: () => assert.fail("no digest lookup"),
      lookupId: async (id: string) => (id === "k1" ? record : null),
    };
    const marked = await resolved({});
    actAs(marked.request, "k1");
    const ok = await authenticateCall(marked, deps({ verifier: byId }));
    assert.ok(!(ok instanceof Response));
    assert.equal(ok.caller.keyId, "k1");
    const unknown = await resolved({});
    actAs(unknown.request, "k2");
    const refused = await authenticateCall(unknown, deps({ verifier: byId }));
    assert.ok(refused instanceof Response);
    assert.equal(await codeOf(refused), "invalid_api_key");
    const noLookup = await resolved({});
    actAs(noLookup.request, "k1");
    const closed = await authenticateCall(noLookup, deps({ verifier: { lookup: () => record } }));
    assert.ok(closed instanceof Response, "a store that cannot look keys up by id refuses the call");
    const unmarked = await authenticateCall(await resolved({}), deps({ verifier: byId }));
    assert.ok(unmarked instanceof Response);
    assert.equal(await codeOf(unmarked), "missing_api_key", "an unmarked request is a network request");
  });

  it("an active key yields the keyed call with its windows; a failing store answers 503", async () => {
    const key = generateKey("test");
    const record = keyRecord({ prefix: key.prefix });
    const call = await resolved({ headers: { authorization: `Bearer ${key.key}` } });
    const ok = await authenticateCall(call, deps({ verifier: { lookup: async () => record } }));
    assert.ok(!(ok instanceof Response));
    assert.equal(ok.caller.keyId, "k1");
    assert.equal(ok.burst.limit, 5);
    assert.equal(call.caller, null, "the resolved call is not changed");
    const down = await authenticateCall(call, deps({ config: { get: () => Promise.reject(new Error("down")) } }));
    assert.ok(down instanceof Response);
    assert.equal(down.status, 503);
  });
});

describe("readCallBody, checkLicensing, refuse", () => {
  it("reads a body within the plan's bound and refuses one over it with 413 through admission", async () => {
    const small = await readCallBody(await keyed({ body: '{"n":1}' }), deps());
    assert.ok(!(small instanceof Response));
    assert.equal(small.bodyText, '{"n":1}');
    const a = admission();
    const big = await readCallBody(
      await keyed({ body: JSON.stringify({ n: 1, pad: "x".repeat(64) }) }),
      deps({ admission: a }),
    );
    assert.ok(big instanceof Response);
    assert.equal(big.status, 413);
    assert.equal(a.calls[0].quotaChecked, false);
  });

  it("refuses an endpoint pending licensing with the one wording", async () => {
    const open = await checkLicensing(await keyed(), deps());
    assert.ok(!(open instanceof Response));
    const shut = await checkLicensing(await keyed({}, "pending_licensing"), deps());
    assert.ok(shut instanceof Response);
    const body = (await shut.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, "endpoint_pending_licensing");
    assert.equal(
      body.error.message,
      "POST /api/v1/things/{name} is switched off for test keys pending a data-licensing review.",
    );
  });

  it("the admin console's licensing preview is the gateway's answer, status and body, both families and envs", async () => {
    const id = route().id;
    const pending = new Map([
      [`${id}|test`, "pending_licensing" as const],
      [`${id}|live`, "pending_licensing" as const],
    ]);
    for (const family of ["A", "B"] as const)
      for (const env of ["test", "live"] as const) {
        const d = deps({ match: createRouter([route({ family, envelope: family })]) });
        const call = keyedCall(await resolved({}, d), { ...config(), licensing: pending }, { ...caller, env });
        const shut = await checkLicensing(call, d);
        assert.ok(shut instanceof Response);
        const preview = licensingPreview(call.route, env, "pending_licensing", call.now);
        assert.equal(shut.status, preview.status, `${family} ${env}`);
        assert.deepEqual(await shut.json(), preview.body, `${family} ${env}`);
      }
  });

  it("a refusal becomes 429 with Retry-After once the burst is spent", async () => {
    const res = await refuse(
      await keyed(),
      new ApiError("idempotency_key_reused", "reused"),
      deps({ admission: admission("burst") }),
    );
    assert.equal(res.status, 429);
    assert.equal(await codeOf(res), "rate_limit_exceeded");
    assert.equal(res.headers.get("retry-after"), "30");
  });

  it("a malformed Idempotency-Key is refused (400); a call without one runs unclaimed", async () => {
    const bad = await claimIdempotency(await keyed({ headers: { "idempotency-key": "" } }), deps());
    assert.ok(bad instanceof Response);
    assert.equal(bad.status, 400);
    const none = await claimIdempotency(await keyed(), deps());
    assert.ok(!(none instanceof Response));
    assert.equal((await none.keep(async () => new Response("x"))).status, 200);
  });
});

describe("execute and admitAndAnswer", () => {
  it("maps a handler's domain error, and hides an unexpected one behind the request id", async () => {
    const json = { body: '{"n":1}', headers: { "content-type": "application/json" } };
    const call = keyedCall(await resolved(json), config(), caller);
    const withHandler = (handler: RouteDef["handler"]): KeyedCall => ({
      ...call,
      bodyText: '{"n":1}',
      route: route({ handler }),
    });
    const domain = await execute(
      withHandler(() => {
        throw new DomainError("not_found", "no such thing");
      }),
      deps(),
    );
    assert.equal(domain.ok, false);
    const unexpected = await execute(
      withHandler(() => {
        throw new Error("secret detail");
      }),
      deps(),
    );
    assert.ok(!unexpected.ok);
    assert.equal(unexpected.error.code, "internal_error");
    assert.ok(!unexpected.error.message.includes("secret"));
    const fine = await execute(
      withHandler(() => ({ data: { ok: true } })),
      deps(),
    );
    assert.ok(fine.ok);
  });

  it("answers an admitted call with its windows' headers, and 429 when the burst refuses it", async () => {
    const call = await keyed();
    const outcome = { ok: true as const, result: { data: { ok: true } } };
    const ok = await admitAndAnswer(call, outcome, deps());
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("x-ratelimit-limit"), "5");
    assert.equal(((await ok.json()) as { data: unknown }).data !== undefined, true);
    const limited = await admitAndAnswer(call, outcome, deps({ admission: admission("burst") }));
    assert.equal(limited.status, 429);
  });
});
