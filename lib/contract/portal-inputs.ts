/**
 * Bodies of the portal's routes, the one copy of each input's rules: the route parses with them, the domain function
 * takes (and re-parses, for its other callers) their output, and the forms read their limits and choices
 * (lib/contract/field-attrs.ts). Unknown fields are refused. Browser-safe: zod and constants only.
 */
import { z } from "zod";
import { EXPECTED_VOLUMES, type ExpectedVolume } from "../shared/access-volumes";
import {
  KEY_ENVS,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PLAN_IDS,
  ROLL_OVERLAPS,
  type RollOverlap,
} from "../shared/input-choices";
import { ROLES } from "../shared/roles";
import { boundedText, choice } from "./field-attrs";
import { replayBody, webhookBody, webhookStatusBody } from "./webhooks";

/** A route's `[id]` path segment. */
export const idParams = z.object({ id: z.string() });

export const KEY_NAME_MAX = 80;
export const keyNameBody = z.object({
  name: boundedText(1, KEY_NAME_MAX, `A key name has 1–${KEY_NAME_MAX} characters.`),
});
export const createKeyBody = keyNameBody.extend({ env: choice(KEY_ENVS, "Environment is Test or Live.") }).strict();
export type CreateKeyInput = z.output<typeof createKeyBody>;

const OVERLAPS = Object.keys(ROLL_OVERLAPS) as [RollOverlap, ...RollOverlap[]];
export const rollKeyBody = z
  .object({ overlap: choice(OVERLAPS, `Overlap is one of ${OVERLAPS.join(", ")}.`) })
  .strict();

const VOLUMES = Object.keys(EXPECTED_VOLUMES) as [ExpectedVolume, ...ExpectedVolume[]];
export const accessRequestBody = z
  .object({
    company: boundedText(1, 120, "Company has 1–120 characters."),
    useCase: boundedText(20, 2000, "Use case has 20–2000 characters."),
    expectedVolume: choice(VOLUMES, "Choose the expected volume."),
  })
  .strict();
export type AccessRequestInput = z.output<typeof accessRequestBody>;

/** A plan id; a missing or non-text plan asks for one, an unknown one lists the choices. */
export const planId = choice(PLAN_IDS, (input) =>
  typeof input === "string" ? `plan must be one of ${PLAN_IDS.join(", ")}` : "Choose a plan.",
);
export const planBody = z.object({ plan: planId }).strict();

/** Most origins one account may list, and the longest origin (each is checked in lib/domain/browser-origins.ts). */
export const MAX_BROWSER_ORIGINS = 20;
export const BROWSER_ORIGIN_MAX_LENGTH = 200;
export const browserOriginsBody = z
  .object({
    origins: z
      .array(z.string().max(BROWSER_ORIGIN_MAX_LENGTH))
      .max(MAX_BROWSER_ORIGINS, `at most ${MAX_BROWSER_ORIGINS} origins`),
  })
  .strict();
export const termsBody = z.object({ version: z.number().int() }).strict();

/** A new password's length rule, not trimmed (the domain scores its strength; sign-up reports it with the others). */
export const newPassword = z
  .string()
  .min(PASSWORD_MIN, `Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the password.`)
  .max(PASSWORD_MAX, `Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the password.`);

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

export const role = choice(ROLES, "Role is Owner, Admin, Developer or Viewer.");
export const inviteBody = z.object({ email: z.string().max(320), role }).strict();
export type InviteInput = z.input<typeof inviteBody>;
export const memberRoleBody = z.object({ role }).strict();
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
