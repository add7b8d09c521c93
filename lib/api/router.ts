/** Matches a path against route templates; tells "no such path" apart from "path exists, other method". */
import type { RouteDef } from "./route";

interface Compiled {
  segments: string[]; // literal, or "{name}" for a parameter
  routes: RouteDef[];
}

export type Match =
  | { kind: "route"; route: RouteDef; params: Record<string, string> }
  | { kind: "method_not_allowed"; route: RouteDef; allow: string[] }
  | { kind: "not_found" };

export function createRouter(routes: RouteDef[]) {
  const byTemplate = new Map<string, Compiled>();
  for (const route of routes) {
    const entry = byTemplate.get(route.path) ?? { segments: route.path.split("/").filter(Boolean), routes: [] };
    entry.routes.push(route);
    byTemplate.set(route.path, entry);
  }
  // Literal segments win over parameters (e.g. /alerts before /alerts/{webhookId}): more literals first.
  const compiled = [...byTemplate.values()].sort(
    (a, b) => b.segments.filter((s) => !s.startsWith("{")).length - a.segments.filter((s) => !s.startsWith("{")).length,
  );

  return function match(method: string, pathname: string): Match {
    const parts = pathname.split("/").filter(Boolean);
    for (const entry of compiled) {
      if (entry.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = entry.segments[i];
        if (seg.startsWith("{")) {
          let value: string;
          try {
            value = decodeURIComponent(parts[i]);
          } catch {
            value = "\u0000"; // undecodable: the route matches, its schema rejects it
          }
          params[seg.slice(1, -1)] = value;
        } else if (seg !== parts[i]) ok = false;
      }
      if (!ok) continue;
      const route = entry.routes.find((r) => r.method === method);
      if (route) return { kind: "route", route, params };
      const methods: string[] = entry.routes.map((r) => r.method);
      return {
        kind: "method_not_allowed",
        route: entry.routes[0],
        allow: methods.includes("GET") ? [...methods, "HEAD"] : methods,
      };
    }
    return { kind: "not_found" };
  };
}
