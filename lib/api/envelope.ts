/** Response bodies of the two families (docs/api-contract.md §1, §6). */
import { DISCLAIMER } from "../contract/disclaimer";
import type { ErrorAnswerSpec } from "./errors";
import type { Family } from "./route";
import type { DataLabel } from "../engine/types";

export interface ServedMeta {
  path: string;
  planName: string;
  env: "test" | "live";
  label: DataLabel | "none"; // "none": an account resource (webhooks), no market data served
  requestId: string;
  now: Date;
}

/** A payload's JSON text and its length in UTF-8 bytes. */
interface DataJson {
  json: string;
  bytes: number;
}

/** Payloads are memoised per market view and never mutated, so each one is serialised once (keyed by identity). */
const serialised = new WeakMap<object, DataJson>();
function dataJson(data: unknown): DataJson {
  if (data === null || typeof data !== "object") {
    const json = JSON.stringify(data) ?? "null";
    return { json, bytes: Buffer.byteLength(json) };
  }
  let out = serialised.get(data);
  if (out === undefined) {
    const json = JSON.stringify(data);
    out = { json, bytes: Buffer.byteLength(json) };
    serialised.set(data, out);
  }
  return out;
}

const DISCLAIMER_JSON = JSON.stringify(DISCLAIMER);

/**
 * A success body as the envelope written around the payload's cached serialisation (or around `json`, the payload's
 * JSON text when the handler has it already), and its size in UTF-8 bytes: the
 * size is known without joining the text, so the text need not exist until the answer is sent.
 */
export interface SuccessBody {
  head: string;
  data: string;
  tail: string;
  bytes: number;
}

const HEAD = `{"data":`; // ASCII: its length is its size in bytes

export function successBody(family: Family, data: unknown, meta: ServedMeta, json?: string): SuccessBody {
  const payload = json === undefined ? dataJson(data) : { json, bytes: Buffer.byteLength(json) };
  const isMock = meta.env === "test";
  let tail: string;
  if (family === "A") {
    const m = {
      endpoint: meta.path,
      plan: meta.planName,
      environment: meta.env,
      data_freshness: meta.label,
      is_mock: isMock,
      generated_at: meta.now.toISOString(),
      request_id: meta.requestId,
    };
    tail = `,"meta":${JSON.stringify(m)},"disclaimer":${DISCLAIMER_JSON},"not_financial_advice":true}`;
  } else {
    tail = `,"disclaimer":${DISCLAIMER_JSON},"isMockData":${isMock},"timestamp":"${meta.now.toISOString()}","dataLabel":${JSON.stringify(meta.label)}}`;
  }
  return { head: HEAD, data: payload.json, tail, bytes: HEAD.length + payload.bytes + Buffer.byteLength(tail) };
}

export const successText = (body: SuccessBody) => body.head + body.data + body.tail;

/** The success body as JSON text: the envelope is written around the payload's cached serialisation. */
export function successJson(family: Family, data: unknown, meta: ServedMeta, json?: string): string {
  return successText(successBody(family, data, meta, json));
}

/** What an error body says about data: nothing was served, so the label reflects the caller's environment, if known. */
export interface ErrorContext {
  env: "test" | "live" | null;
  label: DataLabel | "none";
  now: Date;
}

/** The error context once the calling key is known: its environment, and `demo` data on test keys. */
export const keyedErrorContext = (env: "test" | "live", now: Date): ErrorContext => ({
  env,
  label: env === "test" ? "demo" : "none",
  now,
});

export function errorBody(
  family: Family,
  error: Pick<ErrorAnswerSpec, "code" | "message">,
  ctx: ErrorContext,
): unknown {
  const err = { code: error.code, message: error.message };
  if (family === "A") return { error: err };
  return {
    error: err,
    data: null,
    disclaimer: DISCLAIMER,
    isMockData: ctx.env === "test",
    timestamp: ctx.now.toISOString(),
    dataLabel: ctx.label,
  };
}
