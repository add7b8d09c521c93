/**
 * Checks observed answers against the route table: every error a route answered is one its definition declares (and
 * so one the reference documents). Unknown paths (404) and wrong methods (405) are the router's, not a route's.
 */
import { allRoutes } from "../../lib/api/routes";
import { createRouter } from "../../lib/api/router";
import type { Got } from "./contract";

const match = createRouter(allRoutes);

/** How many error answers of routes were checked, and `METHOD path → code` for each one its route does not declare. */
export function undeclaredErrors(answers: readonly Got[]): { checked: number; undeclared: string[] } {
  const out: string[] = [];
  let checked = 0;
  for (const got of answers) {
    const code = (got.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (got.status < 400 || typeof code !== "string") continue;
    const url = new URL(got.sent.path, "http://x");
    const path = url.pathname.length > 1 && url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
    const m = match(got.sent.method === "HEAD" ? "GET" : got.sent.method, path);
    if (m.kind !== "route") continue;
    checked++;
    if (!(m.route.errors as readonly string[]).includes(code))
      out.push(`${got.sent.method} ${got.sent.path} → ${code}`);
  }
  return { checked, undeclared: [...new Set(out)] };
}

/** The pipeline logs an error answer its route does not declare; this finds those lines in a server's output. */
export const undeclaredInLog = (output: string): string[] =>
  output.split("\n").filter((line) => line.includes("undeclared error code"));
