/**
 * Request schemas of the admin console's routes, the one copy of each input's rules (the domain re-parses with them;
 * the admin forms read their limits and choices). Browser-safe: zod and constants only.
 */
import { z } from "zod";
import { ACCOUNT_STATUSES, LICENSING_ENVS, LICENSING_STATES } from "../shared/input-choices";
import { boundedText, choice } from "./field-attrs";
import { planId } from "./portal-inputs";

export const adminIdParams = z.object({ id: z.string().max(200) });
export const adminKeyParams = z.object({ id: z.string().max(200), keyId: z.string().max(200) });
export const adminMemberParams = z.object({ id: z.string().max(200), userId: z.string().max(200) });

/** A reason an operator gives, kept by the audit log: every admin form that asks for one takes the same length. */
export const auditReason = (message = "A reason of 3–500 characters is required.") => boundedText(3, 500, message);

export const licensingChangeBody = z
  .object({
    endpointId: z.string().max(200),
    env: choice(LICENSING_ENVS, "Environment is live or test."),
    state: choice(LICENSING_STATES, "State is enabled or pending_licensing."),
    reason: auditReason(),
  })
  .strict();
export type LicensingChangeInput = z.input<typeof licensingChangeBody>;
/** The same change by path (the CLI's `licensing set`, the seed). */
export const licensingStateBody = licensingChangeBody.pick({ env: true, state: true, reason: true });

export const licensingHistoryQuery = z.object({ endpointId: z.string().max(200) });
export const rejectBody = z.object({ reason: auditReason("A rejection reason has 3–500 characters.") }).strict();
export const SEARCH_MIN = 2;
export const SEARCH_MAX = 200;
export const searchQuery = z.object({
  q: boundedText(SEARCH_MIN, SEARCH_MAX, `Search needs ${SEARCH_MIN}–${SEARCH_MAX} characters.`),
});
export const planChangeBody = z.object({ plan: planId }).strict();
/** Why an operator deactivates an account or a key (kept by the audit log); reactivating needs none. */
export const deactivationBody = z.object({
  reason: auditReason("Give a reason for the deactivation (3–500 characters)."),
});
export const statusBody = z
  .object({ status: z.enum(ACCOUNT_STATUSES), reason: z.string().max(2000).optional() })
  .strict();
export const adminFlagBody = z.object({ admin: z.boolean() }).strict();

/** The audit log's text filters: trimmed, blank means no filter. */
export const AUDIT_TEXT_MAX = 200;
const auditText = (field: string) =>
  z.string().trim().max(AUDIT_TEXT_MAX, `${field} has at most ${AUDIT_TEXT_MAX} characters.`).optional();
export const auditQuery = z.object({
  actor: auditText("actor"),
  action: auditText("action"),
  target: auditText("target"),
  from: z.string().max(60).optional(),
  to: z.string().max(60).optional(),
  cursor: z.string().max(40).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;
