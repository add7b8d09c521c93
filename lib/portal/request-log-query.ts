/** The request log's filters and keyset cursor, as the usage page sends them in the query string. */
import { z } from "zod";
import { STATUS_CLASSES } from "../shared/usage-types";

const time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

export const requestLogQuery = z
  .object({
    key: z.string().min(1).max(64).optional(),
    route: z.string().min(1).max(200).optional(),
    status: z.enum(STATUS_CLASSES).optional(),
    from: time.optional(),
    to: time.optional(),
    cursor: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .strict();
