/**
 * The request log's filters and keyset cursor, as the usage page sends them in the query string. The values are only
 * bounded here; lib/domain/request-log.ts (requestLog) validates what they mean, so every caller gets the same rules.
 */
import { z } from "zod";

const time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const requestLogQuery = z
  .object({
    key: z.string().min(1).max(64).optional(),
    route: z.string().min(1).max(200).optional(),
    status: z.string().min(1).max(8).optional(),
    error_code: z.string().min(1).max(64).optional(),
    symbol: z.string().min(1).max(16).optional(),
    request_id: z.string().min(1).max(128).optional(),
    from: time.optional(),
    to: time.optional(),
    cursor: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .strict();
