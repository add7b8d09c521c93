import "server-only";
import { headers } from "next/headers";

/** The address this page was reached on, so examples work as pasted (behind a proxy, its forwarded host and scheme). */
export async function baseUrl(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host")?.split(",")[0]?.trim() || h.get("host") || "localhost:3000";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() || "http";
  return `${proto === "https" ? "https" : "http"}://${host}`;
}
