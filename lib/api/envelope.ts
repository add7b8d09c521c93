/** Response bodies of the two families (spec §2.1, §2.3, §7; CONTRACT §1, §6). */
import { DISCLAIMER } from "./disclaimer";
import type { ApiError } from "./errors";
import type { Family } from "./route";
import type { DataLabel } from "../engine/types";

export interface ServedMeta {
  path: string;
  planName: string;
  env: "test" | "live";
  label: DataLabel;
  requestId: string;
  now: Date;
}

export function successBody(family: Family, data: unknown, meta: ServedMeta): unknown {
  const isMock = meta.env === "test";
  if (family === "A") {
    return {
      data,
      meta: {
        endpoint: meta.path,
        plan: meta.planName,
        environment: meta.env,
        data_freshness: meta.label,
        is_mock: isMock,
        generated_at: meta.now.toISOString(),
        request_id: meta.requestId,
      },
      disclaimer: DISCLAIMER,
      not_financial_advice: true,
    };
  }
  return { data, disclaimer: DISCLAIMER, isMockData: isMock, timestamp: meta.now.toISOString(), dataLabel: meta.label };
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
  return { ...err, data: null, disclaimer: DISCLAIMER, isMockData: ctx.env === "test", timestamp: ctx.now.toISOString(), dataLabel: ctx.label };
}
