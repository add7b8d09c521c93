/**
 * Every portal, admin and API route, read from the app's files (app/api/portal, app/api/admin, lib/api/routes), so a
 * check built on this list covers a route the day it is added. Dynamic segments stay as templates (`[id]`,
 * `{webhookId}`) for the caller to fill.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface SurfaceRoute {
  method: string;
  /** The path template: `[name]` for the app's segments, `{name}` for the API's. */
  template: string;
  file: string;
}

function walk(dir: string, test: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    return statSync(p).isDirectory() ? walk(p, test) : test(entry) ? [p] : [];
  });
}

/** Route handlers under app/api/<area>, one per exported HTTP method. */
export function appRoutes(area: "portal" | "admin", appDir = "app"): SurfaceRoute[] {
  return walk(join(appDir, "api", area), (n) => n === "route.ts").flatMap((file) => {
    const text = readFileSync(file, "utf8");
    const template = `/${relative(appDir, file)}`.replace(/\/route\.ts$/, "");
    const methods = [...text.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)];
    if (methods.length === 0) throw new Error(`${file} exports no HTTP method`);
    return methods.map((m) => ({ method: m[1], template, file }));
  });
}

/** The /api/v1 routes defined in lib/api/routes: each `method:` with the `path:` that follows it. */
export function apiRoutes(dir = "lib/api/routes"): SurfaceRoute[] {
  return walk(dir, (n) => n.endsWith(".ts")).flatMap((file) =>
    [
      ...readFileSync(file, "utf8").matchAll(
        /method:\s*"(GET|POST|PATCH|PUT|DELETE)",[\s\S]*?path:\s*"(\/api\/v1[^"]*)"/g,
      ),
    ].map((m) => ({ method: m[1], template: m[2], file })),
  );
}

/** The template with every dynamic segment replaced by `fill(name)`. */
export const fillPath = (template: string, fill: (name: string) => string) =>
  template.replace(/\[([^\]]+)\]|\{([^}]+)\}/g, (_, a: string | undefined, b: string | undefined) =>
    fill(a ?? b ?? ""),
  );

export const hasSegments = (template: string) => /\[[^\]]+\]|\{[^}]+\}/.test(template);
