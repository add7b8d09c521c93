/**
 * What a client developer does with the served reference: openapi-typescript types from GET /api/v1/openapi.json, a
 * program using them (min_premium as a number, the history CSV answer) that compiles, and openapi-fetch calls that work.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import createClient from "openapi-fetch";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { lastFridayClose } from "../helpers/live-data";

let t: TestDatabase;
let server: RunningServer;
let key: string;

before(async () => {
  t = await createSeededTestDatabase("openapi_ts", {
    seed: "options-research-demo-v1",
    now: lastFridayClose(new Date()),
  });
  server = await startApiServer(t.url);
  key = (await accountWithKey(t.db)).key;
});

after(async () => {
  await server?.stop();
  await t?.drop();
});

const PROGRAM = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";

type HistoryCsv = paths["/api/v1/history/{symbol}"]["get"]["responses"][200]["content"]["text/csv"];

export async function run(baseUrl: string): Promise<string | undefined> {
  const client = createClient<paths>({ baseUrl });
  const flow = await client.GET("/api/v1/options-flow", { params: { query: { min_premium: 50000, limit: 5 } } });
  const events: unknown[] | undefined = flow.data?.data.events;
  // @ts-expect-error min_premium is a number, not text
  await client.GET("/api/v1/options-flow", { params: { query: { min_premium: "50000" } } });
  const csv = await client.GET("/api/v1/history/{symbol}", {
    params: { path: { symbol: "AAPL" }, query: { format: "csv" } },
    parseAs: "text",
  });
  const text: HistoryCsv | undefined = csv.data;
  return events === undefined ? undefined : text;
}
`;

// Runs first: after the minute-long compile below, the pooled keep-alive connection may be closed under it.
test("openapi-fetch reads the history CSV as text and sends min_premium as a number", async () => {
  const client = createClient<any>({ baseUrl: server.baseUrl, headers: { authorization: `Bearer ${key}` } });
  const flow = await client.GET("/api/v1/options-flow", { params: { query: { min_premium: 50000, limit: 5 } } });
  assert.equal(flow.response.status, 200);
  const csv = await client.GET("/api/v1/history/{symbol}", {
    params: { path: { symbol: "AAPL" }, query: { format: "csv" } },
    parseAs: "text",
  });
  assert.equal(csv.response.status, 200, JSON.stringify(csv.error));
  assert.match(csv.response.headers.get("content-type") ?? "", /^text\/csv/);
  assert.match(String(csv.data), /^# /);
});

test("types generated from the served document compile a program using min_premium: 50000 and the CSV answer", async () => {
  const served = await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json();
  const dir = mkdtempSync(join(process.cwd(), "tests", ".openapi-ts-")); // inside the repo: node_modules resolves
  try {
    writeFileSync(join(dir, "schema.ts"), astToString(await openapiTS(served)));
    writeFileSync(join(dir, "program.ts"), PROGRAM);
    const tsc = join(process.cwd(), "node_modules", ".bin", "tsc");
    const args = ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "esnext"];
    try {
      execFileSync(tsc, [...args, "--moduleResolution", "bundler", join(dir, "program.ts")], { encoding: "utf8" });
    } catch (err) {
      assert.fail(`the program does not compile:\n${(err as { stdout?: string }).stdout}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
