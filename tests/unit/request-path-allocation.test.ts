/**
 * On Node 20 an object literal that starts with a spread and goes on with more properties (`{ ...call, caller }`,
 * `{ ...a, ...b }`) takes V8's slow path: 3–6 µs a call for the pipeline's Call objects, against about 0.2 µs for
 * Object.assign or a plain literal (docs/benchmark.md, 28 Nov: two such spreads were about a sixth of a metered call's
 * server CPU). This keeps the pattern out of the files every /api/v1 request runs through.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const REQUEST_PATH = [
  "lib/api/stages",
  "lib/api/http",
  "lib/limits",
  "lib/api/pipeline.ts",
  "lib/api/served-facts.ts",
  "lib/api/admission.ts",
  "lib/api/rate-headers.ts",
  "lib/api/envelope.ts",
  "lib/api/credentials.ts",
  "lib/api/limits.ts",
  "lib/api/request-metrics.ts",
  "lib/server/gateway.ts",
];

const filesOf = (path: string): string[] =>
  path.endsWith(".ts")
    ? [path]
    : readdirSync(path, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts"))
        .map((f) => join(path, f));

/** `{ ...x,` followed by a property, a shorthand name or another spread. */
const LEADING_SPREAD = /\{\s*\.\.\.(?:[\w.?]+(?:\([^()]*\))?)+\s*,\s*(?:\.\.\.|\[|[\w"'-]+\s*[:,}])/g;

test("no object literal on the request path starts with a spread and goes on (Object.assign or a literal instead)", () => {
  const found: string[] = [];
  for (const file of REQUEST_PATH.flatMap(filesOf)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(LEADING_SPREAD)) {
      const line = text.slice(0, m.index).split("\n").length;
      found.push(`${file}:${line}: ${m[0].replace(/\s+/g, " ")}`);
    }
  }
  assert.deepEqual(found, []);
});

test("the check finds the pattern it is meant to find", () => {
  const bad = [
    "{ ...call, caller }",
    "{ ...bounds(family, now), limit: 1 }",
    "{\n  ...call,\n  caller: x,\n}",
    "{ ...a, ...b }",
    '{ ...h, "x-a": "1" }',
  ];
  for (const text of bad) assert.ok(text.match(LEADING_SPREAD), text);
  for (const text of ["{ a: 1, ...b }", "const { ...rest } = x", "[...a, b]", "f(...args, x)"])
    assert.equal(text.match(LEADING_SPREAD), null, text);
});
