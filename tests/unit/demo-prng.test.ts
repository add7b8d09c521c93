import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Rng, extendKey, rngFor, streamKey } from "../../lib/market/demo/prng";

describe("demo prng", () => {
  it("repeats a stream for the same key and differs across labels", () => {
    const a = rngFor("seed", "AAPL", 1);
    const b = rngFor("seed", "AAPL", 1);
    const c = rngFor("seed", "AAPL", 2);
    const xa = Array.from({ length: 5 }, () => a.next());
    assert.deepEqual(
      xa,
      Array.from({ length: 5 }, () => b.next()),
    );
    assert.notDeepEqual(
      xa,
      Array.from({ length: 5 }, () => c.next()),
    );
    assert.equal(streamKey("s", "a", "b"), extendKey(streamKey("s", "a"), "b"));
    assert.notEqual(streamKey("s", "ab"), streamKey("s", "a", "b"));
  });

  it("draws uniforms in [0, 1) and standard normals", () => {
    const rng = new Rng(streamKey(7, "moments"));
    let sum = 0;
    let sq = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      assert.ok(u >= 0 && u < 1);
      const z = rng.normal();
      sum += z;
      sq += z * z;
    }
    assert.ok(Math.abs(sum / n) < 0.02, `mean ${sum / n}`);
    assert.ok(Math.abs(sq / n - 1) < 0.02, `variance ${sq / n}`);
  });

  it("draws Poisson counts with the right mean and heavy-tailed Pareto sizes", () => {
    const rng = rngFor(1, "poisson");
    let total = 0;
    for (let i = 0; i < 20_000; i++) total += rng.poisson(4);
    assert.ok(Math.abs(total / 20_000 - 4) < 0.1);
    const sizes = Array.from({ length: 20_000 }, () => rng.pareto(1, 1.2));
    assert.ok(Math.min(...sizes) >= 1);
    assert.ok(sizes.filter((s) => s >= 100).length > 20, "a tail of large sizes");
  });
});
