import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { BoundedMemo } from "../../lib/util/bounded-memo";

describe("BoundedMemo", () => {
  it("makes a value once per key and answers the kept one after", () => {
    const memo = new BoundedMemo<number, string>(10);
    let made = 0;
    const make = (k: number) => (made++, `v${k}`);
    assert.equal(memo.get(1, make), "v1");
    assert.equal(memo.get(1, make), "v1");
    assert.equal(memo.get(2, make), "v2");
    assert.equal(made, 2);
  });

  it("holds at most `max` entries: the next new key empties it first, and old keys are made again", () => {
    const memo = new BoundedMemo<number, number>(3);
    const made: number[] = [];
    const make = (k: number) => (made.push(k), k * 10);
    for (const k of [1, 2, 3]) memo.get(k, make);
    assert.deepEqual(made, [1, 2, 3]);
    for (const k of [1, 2, 3]) memo.get(k, make); // all kept
    assert.deepEqual(made, [1, 2, 3]);
    assert.equal(memo.get(4, make), 40); // full: emptied, then 4 kept
    assert.equal(memo.get(4, make), 40);
    assert.equal(memo.get(1, make), 10);
    assert.deepEqual(made, [1, 2, 3, 4, 1]);
  });
});
