/**
 * A failed fetch leaves nothing running: when one symbol's pages fail, the other symbols' workers stop before their next
 * page and are waited for, so no request of the failed run reaches the vendor after it returns (lib/market/massive/fetch.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fetchChains } from "../../lib/market/massive/fetch";
import type { MassiveClient } from "../../lib/market/massive/client";

test("after one symbol fails, the others request no further page, and none is still going once the fetch has failed", async () => {
  const requested: string[] = [];
  let inFlight = 0;
  const client = {
    async *pages(path: string) {
      for (let page = 1; page <= 20; page++) {
        inFlight++;
        requested.push(`${path}#${page}`);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        if (path.endsWith("/BAD")) throw new Error("vendor fault");
        yield [];
      }
    },
  } as unknown as MassiveClient;
  await assert.rejects(fetchChains(client, ["AAPL", "BAD", "SPY"]), /vendor fault/);
  const settled = requested.length;
  assert.equal(inFlight, 0, "no page request is still going");
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(requested.length, settled, `pages requested after the failure: ${requested.slice(settled).join(", ")}`);
  assert.ok(!requested.includes("/v3/snapshot/options/AAPL#20"), "AAPL stopped early");
});
