import { test } from "node:test";
import assert from "node:assert/strict";
import { formatBytes } from "../../lib/shared/format-bytes";

test("the drawer's response size: exact bytes, decimal units past a thousand (hand-checked)", () => {
  assert.equal(formatBytes(0), "0 bytes");
  assert.equal(formatBytes(1), "1 byte");
  assert.equal(formatBytes(999), "999 bytes");
  assert.equal(formatBytes(1000), "1,000 bytes (1.0 kB)");
  assert.equal(formatBytes(1234), "1,234 bytes (1.2 kB)");
  assert.equal(formatBytes(1_048_576), "1,048,576 bytes (1.0 MB)");
});
