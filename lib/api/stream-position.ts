/** A live stream's position (docs/api-contract.md "Live stream"): what Last-Event-ID names, and how it is read. */
import { ApiError } from "./errors";

/** A stream position: the stored row and the index of the last event derived from it (rows can yield several). */
export interface StreamPosition {
  row: number;
  index: number;
}

export function parseLastEventId(value: string | null): StreamPosition | null | ApiError {
  if (value === null || value.trim() === "") return null;
  const m = /^(\d{1,15})\.(\d{1,3})$/.exec(value.trim());
  if (!m) return new ApiError("invalid_request", "Last-Event-ID must be an event id this stream sent (e.g. 1234.0).");
  return { row: Number(m[1]), index: Number(m[2]) };
}
