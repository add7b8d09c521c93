import { randomUUID } from "node:crypto";

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a caller's X-Request-Id of up to 128 safe characters, otherwise makes one. */
export function requestIdFrom(headers: Headers): string {
  const sent = headers.get("x-request-id");
  return sent !== null && SAFE_ID.test(sent) ? sent : `req_${randomUUID().replaceAll("-", "")}`;
}
