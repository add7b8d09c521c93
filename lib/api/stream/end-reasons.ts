/** Why a live stream ends: each becomes the stream's final `error` event (docs/api-contract.md "Live stream"). */
import { planName } from "../../shared/plan-name";
import type { Caller } from "../credentials";
import { ApiError } from "../errors";

/** The store could not be read or metering failed: nothing unmetered was sent. */
export const storeDown = () =>
  new ApiError("data_source_unavailable", "The service's store is unreachable; reconnect shortly.");

export const quotaSpent = (plan: Caller["plan"], limit: number) =>
  new ApiError("plan_limit_exceeded", `The ${planName(plan)} plan's daily quota of ${limit} calls is spent.`);

export const slowConsumer = () =>
  new ApiError("slow_consumer", "The stream was read too slowly and fell behind; reconnect with Last-Event-ID.");

export const leaseLapsed = () =>
  new ApiError(
    "data_source_unavailable",
    "This stream's slot lapsed (the server could not renew it in time); reconnect with Last-Event-ID.",
  );

export const restarting = () =>
  new ApiError("data_source_unavailable", "The service is restarting; reconnect with Last-Event-ID.");
