import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { applyHeapGrowing } from "../../lib/server/heap-growing";
import { appEnv, reloadAppEnv } from "../../lib/env";

const MODULE = fileURLToPath(new URL("../../lib/server/heap-growing.ts", import.meta.url));

describe("the API server's heap growing factor (issue 33: peak RSS)", () => {
  it("defaults to 200 %: a 3 × old generation instead of V8's up to 4 ×", () => {
    delete process.env.API_HEAP_GROWING_PERCENT;
    reloadAppEnv();
    assert.equal(appEnv().API_HEAP_GROWING_PERCENT, 200);
    const set: string[] = [];
    applyHeapGrowing(200, (f) => set.push(f));
    assert.deepEqual(set, ["--heap-growing-percent=200"]);
  });

  it("0 leaves V8's own schedule", () => {
    const set: string[] = [];
    applyHeapGrowing(0, (f) => set.push(f));
    assert.deepEqual(set, []);
    assert.throws(() => applyHeapGrowing(-1, () => {}), RangeError);
  });

  it("takes effect when set after start-up: V8 sizes the old generation by it at the next full collection", () => {
    // As runApiServer sets it, in a process already running; V8's trace of each new limit names the factor it used.
    // Guards against a Node whose V8 flags freeze after start-up.
    const limits = (percent: number) => {
      const code = `
        ${percent ? `require(${JSON.stringify(MODULE)}).applyHeapGrowing(${percent});` : ""}
        const kept = Array.from({ length: 100000 }, (_, i) => ({ i }));
        gc();
        gc();
        if (kept.length !== 100000) process.exit(1);`;
      const r = spawnSync(process.execPath, ["--expose-gc", "--trace-gc-verbose", "--import", "tsx", "-e", code], {
        encoding: "utf8",
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.split("\n").filter((l) => l.includes("[HeapController] Limit:"));
    };
    const set = limits(237);
    assert.ok(set.length >= 2, "V8 traced no new limit");
    for (const line of set) assert.match(line, /\(3\.4\)$/);
    assert.ok(
      limits(0).some((line) => !/\(3\.4\)$/.test(line)),
      "V8's own factor is 3.4 here too: the test cannot tell",
    );
  });
});
