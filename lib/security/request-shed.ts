/**
 * Routes that an unauthenticated flood could use to crowd out everyone else get a cap on the requests each process
 * works on at once (issue 30: 300 concurrent bogus password-reset completions made a real sign-in 125× slower, though
 * every one was refused at its token). Past the cap a request is answered 429 at the HTTP server's request event,
 * before Next routes it or the database is asked, with the headers Next would have added. The 429 is held for
 * `holdMs` (the second Retry-After asks for anyway) before it is sent: a flood that resends at once would otherwise
 * turn its refusals into thousands of requests a second, and answering those takes the CPU a real sign-in needs.
 * At most MAX_HELD refusals are held per process; past that they are answered at once. A real user who meets the cap
 * waits a second and sends again (Retry-After: 1); the per-address and per-link budgets still apply to what goes in.
 * Installed with the slow-client guard (./slow-clients.ts). Docs: docs/security.md "Floods of unauthenticated requests".
 */
import type http from "node:http";
import { randomUUID } from "node:crypto";
import { API_CSP, commonSecurityHeaders } from "./headers";

export interface InFlightCap {
  method: string;
  path: string;
  /** Requests this process works on at once; the next one is answered 429. */
  max: number;
  message: string;
  /** How long a refusal is held before it is sent (ms); 0 answers at once. */
  holdMs: number;
  /**
   * How long a request answered 400 (for the reset: a made-up, used or expired link) keeps its place after its answer
   * (ms), so the cap bounds the rate of such failures that reach Next (max per this many ms), not only their number
   * at once. Other answers (a success, a 403 cross-origin refusal, a 429 budget) free their place at once.
   */
  errorHoldMs: number;
}

/** Refusals held at once per process, over every cap (a socket and a timer each). */
export const MAX_HELD = 1024;

export const IN_FLIGHT_CAPS: readonly InFlightCap[] = [
  {
    method: "POST",
    path: "/api/portal/password-reset/complete",
    max: 4,
    message: "Too many password resets are being completed right now. Try again in a moment.",
    holdMs: 1000,
    errorHoldMs: 1000,
  },
];

const inFlight = new Map<InFlightCap, number>();
let held = 0;

/** The requests of `cap` in progress in this process (tests, diagnostics). */
export const inFlightOf = (cap: InFlightCap) => inFlight.get(cap) ?? 0;
/** Refusals waiting to be sent (tests, diagnostics). */
export const heldRefusals = () => held;

/** Sends the refusal after the cap's hold (at once when MAX_HELD are already waiting); a client that leaves is let go. */
function refuseLater(req: http.IncomingMessage, res: http.ServerResponse, cap: InFlightCap): void {
  req.resume(); // the body is not wanted: drained, so the connection can carry the next request
  if (cap.holdMs <= 0 || held >= MAX_HELD) {
    refuse(res, cap);
    return;
  }
  held++;
  const timer = setTimeout(() => {
    res.off("close", gone);
    held--;
    refuse(res, cap);
  }, cap.holdMs);
  const gone = () => {
    clearTimeout(timer);
    held--;
  };
  res.once("close", gone);
}

function refuse(res: http.ServerResponse, cap: InFlightCap): void {
  const headers: Record<string, string> = {};
  for (const h of commonSecurityHeaders(process.env.NODE_ENV === "production")) headers[h.key.toLowerCase()] = h.value;
  res.writeHead(429, {
    ...headers,
    "content-security-policy": API_CSP,
    "content-type": "application/json",
    "cache-control": "no-store",
    "retry-after": "1",
    "x-request-id": `req_${randomUUID().replaceAll("-", "")}`,
  });
  res.end(JSON.stringify({ error: { code: "rate_limited", message: cap.message } }));
}

/**
 * Answers `req` itself (429, after the cap's hold) when its route is at its cap, and says so (true: do not pass it
 * on); otherwise counts it
 * until its response is done (false: pass it on).
 */
export function shedRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  caps: readonly InFlightCap[] = IN_FLIGHT_CAPS,
): boolean {
  const url = req.url ?? "";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const cap = caps.find((c) => c.path === path && c.method === req.method);
  if (!cap) return false;
  const n = inFlightOf(cap);
  if (n >= cap.max) {
    refuseLater(req, res, cap);
    return true;
  }
  inFlight.set(cap, n + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    inFlight.set(cap, inFlightOf(cap) - 1);
  };
  res.once("finish", () => {
    if (res.statusCode === 400 && cap.errorHoldMs > 0) setTimeout(release, cap.errorHoldMs);
    else release();
  });
  res.once("close", () => {
    if (!res.writableFinished) release(); // the client left before the answer
  });
  return false;
}
