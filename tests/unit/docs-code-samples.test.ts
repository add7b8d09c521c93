/** The /docs reference's code samples: every operation of the document the viewer renders carries curl, TypeScript and
 * Python samples, the TypeScript one calling the operation's client method and the Python one its snake_case method. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { withCodeSamples, type XCodeSample } from "../../clients/snippets/reference";
import { OPERATION_EXAMPLES } from "../../clients/snippets/examples";
import { buildRequest } from "../../clients/typescript/src/client";
import { OPERATIONS, type OperationId } from "../../clients/typescript/src/generated/operations";
import { buildOpenApi } from "../../lib/api/openapi";
import { allRoutes } from "../../lib/api/routes";

const BASE = "https://api.example.com";
const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

test("every operation of the /docs document has curl, TypeScript and Python samples naming its client method", () => {
  const original = buildOpenApi(allRoutes);
  const before = JSON.stringify(original);
  const doc = withCodeSamples(original, BASE) as unknown as {
    paths: Record<string, Record<string, { operationId?: string; "x-codeSamples"?: XCodeSample[] }>>;
  };
  assert.equal(JSON.stringify(original), before, "the API's own document is not changed");
  let operations = 0;
  const withoutClient: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const id = op.operationId as OperationId;
      if (!OPERATIONS[id]) {
        withoutClient.push(`${method.toUpperCase()} ${path}`);
        assert.equal(op["x-codeSamples"], undefined);
        continue;
      }
      operations++;
      const samples = op["x-codeSamples"];
      assert.ok(samples, `${id} has samples`);
      assert.deepEqual(
        samples.map((s) => s.lang),
        ["curl", "typescript", "python"],
        id,
      );
      const [curl, typescript, python] = samples.map((s) => s.source);
      assert.match(typescript, /from "@options-research\/client"/);
      // the stream is iterated (`for await (const ev of api.openStream(…))`); every other method is awaited
      const call = id === "openStream" ? `for await (const ev of api.${id}(` : `await api.${id}(`;
      assert.ok(typescript.includes(call), `${id}: the TypeScript sample calls api.${id}`);
      assert.match(python, /from options_research import Client/);
      assert.ok(python.includes(`client.${snake(id)}(`), `${id}: the Python sample calls client.${snake(id)}`);
      const { url } = buildRequest(BASE, OPERATIONS[id], OPERATION_EXAMPLES[id]);
      assert.ok(curl.includes(`'${url}'`), `${id}: curl calls ${url}`);
      for (const s of samples) assert.doesNotMatch(s.source, /svc_(test|live|sk)_/, "never a key");
    }
  }
  assert.equal(operations, Object.keys(OPERATIONS).length, "every client operation is in the document");
  // The reference itself is the one operation without a client method (the clients are generated from it).
  assert.deepEqual(withoutClient, ["GET /api/v1/openapi.json"]);
});
