/** Ages against the access-request promise ("an answer within 1–3 business days"): Monday to Friday, UTC. */
import "server-only";
export const ACCESS_PROMISE_BUSINESS_DAYS = 3;

/** Whole business days elapsed from `from` to `to`: each Monday–Friday date after `from`'s date, up to `to`'s date. */
export function businessDaysBetween(from: Date, to: Date): number {
  const day = 86_400_000;
  let n = 0;
  for (let t = Math.floor(from.getTime() / day) * day + day; t <= to.getTime(); t += day) {
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6) n++;
  }
  return n;
}
