/** Sends a playground request through the real gateway pipeline, in process: metered against the key like any other call. */
import "server-only";
import { allRoutes } from "../api/routes";
import { DomainError } from "../domain/errors";
import type { PlaygroundRequest, PlaygroundResponse } from "../portal/playground-call";
import { requestPath } from "../portal/playground-operations";

/** Response headers worth showing: limits, request id, content type, and what a refusal needs. */
const SHOWN = [
  "ratelimit-policy",
  "ratelimit",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "x-request-id",
  "content-type",
  "allow",
];
const MAX_BODY = 2 * 1024 * 1024;

export async function callGateway(
  handle: (r: Request) => Promise<Response>,
  origin: string,
  req: PlaygroundRequest,
  key: () => Promise<string>,
): Promise<PlaygroundResponse> {
  const route = allRoutes.find((r) => r.id === req.operation);
  if (!route) throw new DomainError("invalid", `No operation ${req.operation.slice(0, 100)}.`, { field: "operation" });
  const missing = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).find((name) => !req.params[name]);
  if (missing) throw new DomainError("invalid", `Fill in ${missing}.`, { field: missing });
  const path = requestPath(route.path, req.params, req.query);
  const headers: Record<string, string> = {};
  if (route.authenticated) headers.authorization = `Bearer ${await key()}`;
  if (route.body) headers["content-type"] = "application/json";
  const started = performance.now();
  const res = await handle(
    new Request(origin + path, {
      method: route.method,
      headers,
      body: route.body ? JSON.stringify(req.body ?? {}) : undefined,
    }),
  );
  return playgroundResponse(res, started, path);
}

/** A gateway answer as the playground shows it: status, the headers worth showing, the body (JSON parsed), the time. */
export async function playgroundResponse(res: Response, started: number, path: string): Promise<PlaygroundResponse> {
  const text = await res.text();
  const durationMs = Math.round((performance.now() - started) * 10) / 10;
  let body: unknown = text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}…` : text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: shown as text
  }
  const shown = Object.fromEntries(
    SHOWN.flatMap((h) => {
      const value = res.headers.get(h);
      return value === null ? [] : [[h, value]];
    }),
  );
  return { status: res.status, headers: shown, body, durationMs, path };
}
