/** The portal's database handle: the process-wide gateway's pool (one pool per process for the API and the portal). */
import "server-only";
import type { Db } from "../db/client";
import { sharedGateway } from "./gateway";

export async function portalDb(): Promise<Db> {
  return (await sharedGateway()).database.db;
}

/** The same pool as the raw `postgres` handle, for domain functions written in SQL (webhook status, deliveries). */
export async function portalDatabase() {
  return (await sharedGateway()).database;
}
