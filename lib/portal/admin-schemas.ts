/** Request schemas of the admin console's routes (browser-safe: the admin forms type their values from these). */
import { z } from "zod";

export const adminIdParams = z.object({ id: z.string().max(200) });
export const adminKeyParams = z.object({ id: z.string().max(200), keyId: z.string().max(200) });
export const adminMemberParams = z.object({ id: z.string().max(200), userId: z.string().max(200) });

export const licensingChangeBody = z
  .object({
    endpointId: z.string().max(200),
    env: z.string().max(20),
    state: z.string().max(40),
    reason: z.string().max(2000),
  })
  .strict();
export type LicensingChangeInput = z.input<typeof licensingChangeBody>;

export const licensingHistoryQuery = z.object({ endpointId: z.string().max(200) });
export const rejectBody = z.object({ reason: z.string().max(2000) }).strict();
export const searchQuery = z.object({ q: z.string().max(400) });
export const planChangeBody = z.object({ plan: z.string().max(40) }).strict();
export const statusBody = z
  .object({ status: z.enum(["active", "inactive"]), reason: z.string().max(2000).optional() })
  .strict();
export const adminFlagBody = z.object({ admin: z.boolean() }).strict();

export const auditQuery = z.object({
  actor: z.string().max(400).optional(),
  action: z.string().max(400).optional(),
  target: z.string().max(400).optional(),
  from: z.string().max(60).optional(),
  to: z.string().max(60).optional(),
  cursor: z.string().max(40).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;
