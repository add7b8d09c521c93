/**
 * Every admin page, route (with its methods) and server action, read from the app's files, so a check built on this
 * list covers an admin route the day it is added.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface AdminRoute {
  method: string;
  /** The URL path with each dynamic segment filled in with a well-formed id that exists nowhere. */
  path: string;
  file: string;
}

const PARAM_VALUE = "00000000-0000-4000-8000-000000000000";

function walk(dir: string, name: string | RegExp): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) return walk(p, name);
    return (typeof name === "string" ? entry === name : name.test(entry)) ? [p] : [];
  });
}

const urlOf = (file: string, root: string, name: string) =>
  `/${relative(root, file)}`
    .replace(new RegExp(`/?${name.replace(".", "\\.")}$`), "")
    .replace(/\([^)]+\)\//g, "") // route groups are not in the URL
    .replace(/\[[^\]]+\]/g, PARAM_VALUE) || "/";

/** Pages under app/admin (as URLs). */
export function adminPages(appDir = "app"): string[] {
  return walk(join(appDir, "admin"), "page.tsx")
    .map((f) => urlOf(f, appDir, "page.tsx"))
    .sort();
}

/** A route file under app/api and the HTTP methods it exports; `template` keeps dynamic segments as `[name]`. */
export interface RouteFile {
  file: string;
  template: string;
  methods: string[];
}

/** Every route.ts under `dir` (e.g. app/api/portal) with the methods it exports; a file exporting none throws. */
export function routeFiles(dir: string, appDir = "app"): RouteFile[] {
  return walk(dir, "route.ts").map((file) => {
    const text = readFileSync(file, "utf8");
    const methods = [
      ...text.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g),
    ].map((m) => m[1]);
    if (methods.length === 0) throw new Error(`${file} exports no HTTP method`);
    const template = `/${relative(appDir, file)}`.replace(/\/route\.ts$/, "").replace(/\([^)]+\)\//g, "");
    return { file, template, methods };
  });
}

/** Routes under app/api/admin, one per exported HTTP method. */
export function adminRoutes(appDir = "app"): AdminRoute[] {
  return routeFiles(join(appDir, "api", "admin"), appDir).flatMap(({ file, template, methods }) =>
    methods.map((method) => ({ method, path: template.replace(/\[[^\]]+\]/g, PARAM_VALUE), file })),
  );
}

/** Files under the admin areas that declare server actions ("use server"). */
export function adminServerActionFiles(roots = ["app/admin", "components/admin"]): string[] {
  return roots.flatMap((root) =>
    walk(root, /\.(ts|tsx)$/).filter((f) => /^\s*["']use server["']/m.test(readFileSync(f, "utf8"))),
  );
}
