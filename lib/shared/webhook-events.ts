/** The webhook event types (plain data: the registration form in the browser lists them too). */
export const WEBHOOK_EVENTS = [
  "iv_rank.crossed_above",
  "iv_rank.crossed_below",
  "iv.day_change_exceeded",
  "no_trade.decision_changed",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
