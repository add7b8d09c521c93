import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TtlCache } from "../../lib/util/ttl-cache";

/** A loader whose answers the test releases by hand, counting its calls. */
function manualLoader() {
  const pending: { key: string; resolve: (v: string) => void }[] = [];
  let version = 0;
  return {
    calls: () => pending.length,
    bump: () => version++,
    load: (key: string) =>
      new Promise<string>((resolve) => {
        const at = version;
        pending.push({ key, resolve: () => resolve(`${key}@${at}`) });
      }),
    release: (i: number) => pending[i].resolve(""),
  };
}

describe("TtlCache", () => {
  it("keeps a value for its lifetime, shares one load between concurrent misses, reloads after expiry", async () => {
    const l = manualLoader();
    const cache = new TtlCache<string, string>(1000, 10, l.load);
    const a = cache.get("k", 0);
    const b = cache.get("k", 0);
    assert.equal(a, b);
    assert.equal(l.calls(), 1);
    l.release(0);
    assert.equal(await a, "k@0");
    assert.equal(cache.get("k"), "k@0"); // synchronous while fresh
    assert.ok(cache.get("k", Date.now() + 1001) instanceof Promise);
    assert.equal(l.calls(), 2);
  });

  it("invalidateWhere forgets matching entries only", async () => {
    const l = manualLoader();
    const cache = new TtlCache<string, string>(60_000, 10, l.load);
    const a = cache.get("a");
    const b = cache.get("b");
    l.release(0);
    l.release(1);
    await Promise.all([a, b]);
    cache.invalidateWhere((v) => v.startsWith("a"));
    assert.ok(cache.get("a") instanceof Promise, "a reloads");
    assert.equal(cache.get("b"), "b@0", "b kept");
  });

  it("a load in flight when the cache is invalidated answers its callers but is not kept", async () => {
    const l = manualLoader();
    const cache = new TtlCache<string, string>(60_000, 10, l.load);
    const before = cache.get("k"); // reads the old state…
    l.bump(); // …the state changes and is announced while that read is in flight
    cache.invalidateWhere(() => true);
    const after = cache.get("k");
    assert.notEqual(before, after, "a caller after the notice does not join the old load");
    l.release(1); // the new read lands first…
    assert.equal(await after, "k@1");
    l.release(0); // …then the old one, which must not replace it
    assert.equal(await before, "k@0");
    assert.equal(cache.get("k"), "k@1", "the new value is the one kept");
    assert.equal(l.calls(), 2);
  });
});
