/**
 * GET /metrics (issue 33, docs/operations.md "Metrics"): the per-call histogram's buckets and text, and the token rule
 * of the handler both servers use, called here through the Next route handler (app/metrics/route.ts).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { FastHistogram } from "../../lib/metrics/fast-histogram";
import { metrics } from "../../lib/metrics/registry";
import { reloadAppEnv } from "../../lib/env";
import { GET, HEAD } from "../../app/metrics/route";

const TOKEN = "metrics-token-for-the-unit-test";
const scrape = (headers: Record<string, string> = {}, method = "GET") =>
  (method === "HEAD" ? HEAD : GET)(new Request("http://localhost/metrics", { method, headers }));

/** The sample's value in Prometheus text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("FastHistogram", () => {
  it("counts each observation in its bucket (le: at most the bound) and exports cumulative buckets", async () => {
    const h = new FastHistogram({ name: "t_seconds", help: "t", buckets: [0.01, 0.1] });
    const child = h.child({ family: "A" });
    for (const v of [0.005, 0.01, 0.05, 2]) child.observe(v);
    h.child({ family: "B" }); // never observed: not exported
    const got = await (h.asMetric() as unknown as { get(): Promise<{ values: unknown[] }> }).get();
    assert.deepEqual(got.values, [
      { metricName: "t_seconds_bucket", labels: { family: "A", le: "0.01" }, value: 2 },
      { metricName: "t_seconds_bucket", labels: { family: "A", le: "0.1" }, value: 3 },
      { metricName: "t_seconds_bucket", labels: { family: "A", le: "+Inf" }, value: 4 },
      { metricName: "t_seconds_sum", labels: { family: "A" }, value: 2.065 },
      { metricName: "t_seconds_count", labels: { family: "A" }, value: 4 },
    ]);
    const counted = await (
      h.countAsMetric("t_total", "t") as unknown as { get(): Promise<{ values: unknown[] }> }
    ).get();
    assert.deepEqual(counted.values, [{ labels: { family: "A" }, value: 4 }]);
  });
});

describe("GET /metrics under next start (the route handler)", () => {
  let saved: string | undefined;
  before(() => {
    saved = process.env.METRICS_TOKEN;
  });
  after(() => {
    if (saved === undefined) delete process.env.METRICS_TOKEN;
    else process.env.METRICS_TOKEN = saved;
    reloadAppEnv();
  });

  it("is off (404) while METRICS_TOKEN is unset, whatever the request sends", async () => {
    delete process.env.METRICS_TOKEN;
    reloadAppEnv();
    const res = await scrape({ authorization: `Bearer ${TOKEN}` });
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, "not_found");
  });

  it("refuses a scrape without the token, or with another one, with 401 and WWW-Authenticate", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    reloadAppEnv();
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-the-token" },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await scrape(headers);
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer realm="metrics"/);
      assert.doesNotMatch(await res.text(), /http_requests_total/);
    }
  });

  it("answers the token's bearer with the Prometheus text: request counters, histograms and the defaults", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    reloadAppEnv();
    metrics.request("portal", 204, 0.004);
    const res = await scrape({ authorization: `Bearer ${TOKEN}` });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.match(res.headers.get("content-security-policy") ?? "", /default-src .none./);
    const text = await res.text();
    assert.ok((sample(text, 'http_requests_total{family="portal",status_class="2xx"}') ?? 0) >= 1);
    assert.ok(
      (sample(text, 'http_request_duration_seconds_bucket{family="portal",status_class="2xx",le="0.005"}') ?? 0) >= 1,
    );
    for (const name of ["nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes", "admission_wait_seconds_count"])
      assert.ok(sample(text, name) !== undefined, name);
    assert.equal((await scrape({ authorization: `Bearer ${TOKEN}` }, "HEAD")).status, 200);
  });
});
