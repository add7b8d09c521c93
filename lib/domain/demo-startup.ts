/**
 * What `npm start` creates by itself: on the embedded default the demo account and its test key (so the README's first
 * command prints a working key); against a configured DATABASE_URL nothing, unless DEMO_ACCOUNT=on.
 */
import "server-only";
import type { Db } from "../db/client";
import { ensureDemoAccess } from "./demo-access";

export type DemoAccess = Awaited<ReturnType<typeof ensureDemoAccess>>;

/** Whether this start may create (and print) the demo account: embedded default, or DEMO_ACCOUNT=on explicitly. */
export function demoAccountWanted(opts: { embedded: boolean; demoAccount?: string | undefined }): boolean {
  const flag = (opts.demoAccount ?? "").trim().toLowerCase();
  if (flag === "on") return true;
  if (flag === "off") return false;
  return opts.embedded;
}

/** The demo access to print, or null when this start must create nothing (production with DATABASE_URL). */
export async function demoAccessOnStart(
  db: Db,
  dataDir: string,
  opts: { embedded: boolean; demoAccount?: string | undefined },
): Promise<DemoAccess | null> {
  return demoAccountWanted(opts) ? ensureDemoAccess(db, dataDir) : null;
}
