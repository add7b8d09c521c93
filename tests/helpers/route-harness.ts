/**
 * The in-process route harness (the shape of unkey's route-harness): the gateway that `lib/server/api-server.ts` serves,
 * started in the test's own process on the test file's database, called as `(Request) => Promise<Response>` with an
 * injectable clock. No child process, no port, no 150 s start-up allowance.
 *
 * Tests written for a spawned server keep their shape: `harness.baseUrl` is an origin that exists only in this process
 * (`http://route-harness-<n>.test`), and while a harness runs, `fetch` of a URL on that origin is answered by
 * `gateway.handle` (every other URL goes to the network as before). Log lines are kept for `output()`, as a spawned
 * server's stdout was.
 *
 * What needs a real process stays on tests/helpers/api-server.ts: SIGKILL, drain, two processes, malformed HTTP.
 */
import { startGateway, type Gateway } from "../../lib/server/gateway";
import { reloadAppEnv } from "../../lib/env";
import { setLogLevel, setLogSink } from "../../lib/log";

/** The spawned server's environment (tests/helpers/api-server.ts), so that a test moved here sees the same settings. */
const SERVER_ENV: Record<string, string> = {
  LOG_LEVEL: "warn",
  DEMO_TICKER: "off",
  KEY_CACHE_TTL_MS: "0",
  CONFIG_CACHE_TTL_MS: "0",
};

export interface Harness {
  /** The origin this process answers in-process while the harness runs. */
  baseUrl: string;
  gateway: Gateway;
  /** The gateway's handler, for tests that build their own Request. */
  handle(request: Request): Promise<Response>;
  /** Log lines written since the harness started. */
  output(): string;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** Environment variables on top of the spawned server's defaults (read once, before the gateway starts). */
  env?: Record<string, string>;
  /** The pipeline's clock; the wall clock by default. */
  clock?: () => Date;
  poolMax?: number;
}

const networkFetch = globalThis.fetch;
const running = new Map<string, Gateway>();
let origins = 0;

function routedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const gateway = running.get(new URL(url).origin);
  if (!gateway) return networkFetch(input, init);
  // As fetch does: a body stream needs duplex "half"; the Request carries the caller's abort signal to the pipeline.
  const request = new Request(
    input,
    init?.body instanceof ReadableStream ? ({ ...init, duplex: "half" } as RequestInit) : init,
  );
  // As on the wire: a body of known size arrives with its Content-Length (a Request alone does not set it).
  const body = init?.body;
  if ((typeof body === "string" || body instanceof Uint8Array) && !request.headers.has("content-length"))
    request.headers.set("content-length", String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength));
  const signal = init?.signal ?? (input instanceof Request ? input.signal : null);
  if (!signal) return gateway.handle(request);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    gateway.handle(request).then((res) => resolve(abortable(res, signal)), reject);
  });
}

/**
 * As fetch's body after an abort: the reader sees the abort error and the server's stream is cancelled, as a closed
 * connection cancels it behind a real server (a stream then frees its lease at once).
 */
function abortable(res: Response, signal: AbortSignal): Response {
  if (!res.body) return res;
  const source = res.body.getReader();
  let controller: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    async pull(c) {
      const { done, value } = await source.read();
      if (signal.aborted) return;
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel: (reason) => source.cancel(reason),
  });
  signal.addEventListener(
    "abort",
    () => {
      controller.error(signal.reason);
      void source.cancel(signal.reason).catch(() => {});
    },
    { once: true },
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

export async function startRouteHarness(databaseUrl: string, options: HarnessOptions = {}): Promise<Harness> {
  for (const [name, value] of Object.entries({ ...SERVER_ENV, ...options.env })) process.env[name] = value;
  reloadAppEnv();
  setLogLevel((process.env.LOG_LEVEL as "warn") ?? "warn");
  let out = "";
  setLogSink((line) => {
    out += `${line}\n`;
  });
  const gateway = await startGateway({
    databaseUrl,
    poolMax: options.poolMax ?? 10,
    demoTicker: process.env.DEMO_TICKER === "on",
    clock: options.clock,
  });
  const baseUrl = `http://route-harness-${++origins}.test`;
  running.set(baseUrl, gateway);
  globalThis.fetch = routedFetch as typeof fetch;
  return {
    baseUrl,
    gateway,
    handle: (request) => gateway.handle(request),
    output: () => out,
    async stop() {
      running.delete(baseUrl);
      await gateway.close();
      if (running.size > 0) return;
      globalThis.fetch = networkFetch;
      setLogSink(null);
    },
  };
}
