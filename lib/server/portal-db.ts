/**
 * The portal's database handle: the process-wide gateway's pool (one pool per process for the API and the portal),
 * with DB_DEADLINE_MS on every statement so a portal read during an outage fails in seconds instead of hanging.
 */
import "server-only";
import type { Db } from "../db/client";
import { sharedGateway } from "./gateway";

export async function portalDb(): Promise<Db> {
  return (await sharedGateway()).requestDatabase.db;
}

/** The same pool as the raw `postgres` handle, for domain functions written in SQL (webhook status, deliveries). */
export async function portalDatabase() {
  return (await sharedGateway()).requestDatabase;
}
