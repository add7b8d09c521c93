/** Bodies of the keys, access-request and plan portal routes: shapes here (unknown fields refused), value rules in the domain functions. */
import { z } from "zod";

export const createKeyBody = z.object({ name: z.string().max(400), env: z.string().max(20) }).strict();
export const rollKeyBody = z.object({ overlap: z.string().max(20) }).strict();
export const accessRequestBody = z
  .object({ company: z.string().max(1000), useCase: z.string().max(10_000), expectedVolume: z.string().max(40) })
  .strict();
export const planBody = z.object({ plan: z.string().max(40) }).strict();
