/**
 * Bodies of the portal's routes: shapes here (unknown fields refused), value rules in the domain functions.
 * Browser-safe (zod only), so the forms type their values with z.input<…> of the same schemas.
 */
import { z } from "zod";
import { replayBody, webhookBody, webhookStatusBody } from "../contract/webhooks";

/** A route's `[id]` path segment. */
export const idParams = z.object({ id: z.string() });

export const createKeyBody = z.object({ name: z.string().max(400), env: z.string().max(20) }).strict();
export const rollKeyBody = z.object({ overlap: z.string().max(20) }).strict();
export const accessRequestBody = z
  .object({ company: z.string().max(1000), useCase: z.string().max(10_000), expectedVolume: z.string().max(40) })
  .strict();
export const planBody = z.object({ plan: z.string().max(40) }).strict();
/** The account's allowed browser origins (validated one by one in lib/domain/browser-origins.ts). */
export const browserOriginsBody = z.object({ origins: z.array(z.string().max(200)).max(20) }).strict();
export const termsBody = z.object({ version: z.number().int() }).strict();

export const signUpBody = z
  .object({
    email: z.string().max(320),
    password: z.string().max(400),
    name: z.string().max(120).optional(),
    acceptTerms: z.boolean(),
  })
  .strict();
export const passwordResetBody = z.object({ email: z.string().max(320) }).strict();
export const passwordResetCompleteBody = z
  .object({ token: z.string().max(200), password: z.string().max(400) })
  .strict();

const playgroundValues = z.record(z.string().max(100), z.string().max(2000));
export const playgroundCallBody = z
  .object({
    operation: z.string().min(1).max(200),
    params: playgroundValues.default({}),
    query: playgroundValues.default({}),
    body: z.unknown().optional(),
    /** One of the account's own keys, by id (the call acts as it: no secret is sent), or `key`, a pasted key. */
    keyId: z.string().min(1).max(100).optional(),
    key: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((b) => b.keyId === undefined || b.key === undefined, {
    message: "send one of keyId (your key) and key (a pasted key), not both",
    path: ["key"],
  });

/** A portal registration: the API's registration body plus which of the account's keys the webhook belongs to. */
export const registerWebhookBody = z
  .object({
    keyId: z.string().min(1, { message: "choose one of your active API keys" }).max(100),
    webhook: webhookBody,
  })
  .strict();
export const webhookStatusChangeBody = webhookStatusBody;
export const webhookReplayBody = replayBody;

export const inviteBody = z.object({ email: z.string().max(320), role: z.string().max(20) }).strict();
export type InviteInput = z.input<typeof inviteBody>;
export const memberRoleBody = z.object({ role: z.string().max(20) }).strict();
export const transferBody = z.object({ userId: z.string().max(64) }).strict();
export const switchAccountBody = z.object({ accountId: z.string().max(64) }).strict();
/** The account's name or the Owner's e-mail, typed to confirm the deletion (lib/domain/account-deletion.ts). */
export const deleteAccountBody = z.object({ confirm: z.string().max(400) }).strict();
export type DeleteAccountInput = z.input<typeof deleteAccountBody>;
export const acceptInvitationBody = z
  .object({
    token: z.string().max(200),
    password: z.string().max(400).optional(),
    name: z.string().max(120).optional(),
    acceptTerms: z.boolean().optional(),
  })
  .strict();
export type AcceptInvitationBody = z.input<typeof acceptInvitationBody>;
