/**
 * Sends a playground request through the real gateway pipeline, in process: metered against the key like any other call.
 * With one of the account's own keys the request acts as it by id (Gateway.handleAs); a pasted key goes in a header.
 */
import "server-only";
import type { PlaygroundCredential } from "../domain/playground";
import type { Gateway } from "./gateway";
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

export type GatewayEntry = Pick<Gateway, "handle" | "handleAs">;

/**
 * Sends `url` through the gateway: as the credential's key when the route needs one (the credential is only worked out
 * then: a route without a key never asks), anonymously otherwise.
 */
export async function sendThrough(
  gateway: GatewayEntry,
  url: string,
  init: RequestInit & { headers?: Record<string, string> },
  authenticated: boolean,
  credential: () => Promise<PlaygroundCredential>,
): Promise<Response> {
  if (!authenticated) return gateway.handle(new Request(url, init));
  const c = await credential();
  if ("keyId" in c) return gateway.handleAs(new Request(url, init), c.keyId);
  return gateway.handle(new Request(url, { ...init, headers: { ...init.headers, authorization: `Bearer ${c.key}` } }));
}

export async function callGateway(
  gateway: GatewayEntry,
  origin: string,
  req: PlaygroundRequest,
  credential: () => Promise<PlaygroundCredential>,
): Promise<PlaygroundResponse> {
  const route = allRoutes.find((r) => r.id === req.operation);
  if (!route) throw new DomainError("invalid", `No operation ${req.operation.slice(0, 100)}.`, { field: "operation" });
  const missing = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).find((name) => !req.params[name]);
  if (missing) throw new DomainError("invalid", `Fill in ${missing}.`, { field: missing });
  const path = requestPath(route.path, req.params, req.query);
  const headers: Record<string, string> = route.body ? { "content-type": "application/json" } : {};
  const started = performance.now();
  const init = { method: route.method, headers, body: route.body ? JSON.stringify(req.body ?? {}) : undefined };
  const res = await sendThrough(gateway, origin + path, init, route.authenticated, credential);
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
