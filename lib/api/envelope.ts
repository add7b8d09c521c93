/** Response bodies of the two families (docs/api-contract.md §1, §6). */
import { DISCLAIMER } from "../contract/disclaimer";
import type { ApiError } from "./errors";
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

/** Payloads are memoised per market view and never mutated, so each one is serialised once (keyed by identity). */
const serialised = new WeakMap<object, string>();
function dataJson(data: unknown): string {
  if (data === null || typeof data !== "object") return JSON.stringify(data) ?? "null";
  let json = serialised.get(data);
  if (json === undefined) {
    json = JSON.stringify(data);
    serialised.set(data, json);
  }
  return json;
}

const DISCLAIMER_JSON = JSON.stringify(DISCLAIMER);

/**
 * The success body as JSON text: the envelope is written around the payload's cached serialisation, or around `json`,
 * the payload's JSON text when the handler has it already.
 */
export function successJson(family: Family, data: unknown, meta: ServedMeta, json?: string): string {
  const payload = json ?? dataJson(data);
  const isMock = meta.env === "test";
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
    return `{"data":${payload},"meta":${JSON.stringify(m)},"disclaimer":${DISCLAIMER_JSON},"not_financial_advice":true}`;
  }
  return `{"data":${payload},"disclaimer":${DISCLAIMER_JSON},"isMockData":${isMock},"timestamp":"${meta.now.toISOString()}","dataLabel":${JSON.stringify(meta.label)}}`;
}

/** What an error body says about data: nothing was served, so the label reflects the caller's environment, if known. */
export interface ErrorContext {
  env: "test" | "live" | null;
  label: DataLabel | "none";
  now: Date;
}

export function errorBody(family: Family, error: ApiError, ctx: ErrorContext): unknown {
  const err = { error: { code: error.code, message: error.message } };
  if (family === "A") return err;
  return {
    ...err,
    data: null,
    disclaimer: DISCLAIMER,
    isMockData: ctx.env === "test",
    timestamp: ctx.now.toISOString(),
    dataLabel: ctx.label,
  };
}
