/**
 * The fault suite's outage and shutdown cases against `next start` (the app as `npm start` serves it), on a cluster of
 * the test's own: a 10 s outage answers every call 503 within DB_DEADLINE_MS + 1 s and the process serves only 2xx
 * from 3 s after the database is back; SIGTERM under keep-alive load answers every call and exits 0 within
 * SHUTDOWN_GRACE_MS; every 2xx the client saw is metered. Builds the app first when `.next` is stale.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { clusterUnavailableReason } from "../helpers/pg-cluster";
import type { RunningServer } from "../helpers/api-server";
import { ensureNextBuild, startNextServer } from "../helpers/next-server";
import {
  type Answer,
  assertMetered,
  assertOutageAndRestart,
  assertSigtermDrain,
  type FaultCluster,
  keyForLoad,
  startFaultCluster,
} from "../helpers/fault-load";

const skip = clusterUnavailableReason();

describe("database faults under next start", { skip: skip ?? false }, () => {
  let faults: FaultCluster;
  let server: RunningServer;
  let key: string;
  const seen: Answer[] = [];

  before(async () => {
    ensureNextBuild();
    faults = await startFaultCluster();
    server = await startNextServer(faults.viaProxy, faults.env);
    key = await keyForLoad(faults.database);
  });

  after(async () => {
    if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
    await faults?.close();
  });

  it("a 10 s outage answers 503 within the deadline; after restart only 2xx from 3 s on", async () => {
    seen.push(...(await assertOutageAndRestart([server], key, faults.cluster)));
    assert.doesNotMatch(server.output(), /uncaught|unhandled/i);
  });

  it("SIGTERM under keep-alive load answers every call and exits 0 within SHUTDOWN_GRACE_MS", async () => {
    seen.push(...(await assertSigtermDrain(server, key)));
  });

  it("every 2xx the client saw is metered", async () => {
    await assertMetered(faults.database.sql, seen);
  });
});
