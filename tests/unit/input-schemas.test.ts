/**
 * Issue 27 item 5: one schema per input. The forms' limits and choices are the schemas' own (read through
 * lib/contract/field-attrs.ts and rendered as the browser gets them), the domain refuses with the schema's rule and
 * message, and the key name limit is one number everywhere.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { z } from "zod";
import { boundedText, choicesOf, fieldAttrs, lengthHint } from "../../lib/contract/field-attrs";
import {
  accessRequestBody,
  createKeyBody,
  inviteBody,
  KEY_NAME_MAX,
  newPassword,
  rollKeyBody,
  signUpBody,
} from "../../lib/contract/portal-inputs";
import { auditQuery, auditReason, licensingChangeBody, searchQuery } from "../../lib/contract/admin-inputs";
import { CreateKeyForm } from "../../components/portal/keys/create-key-form";
import { AccessForm } from "../../components/portal/access/access-form";
import { LicensingForm } from "../../components/admin/licensing-form";
import { SignUpForm } from "../../components/auth/signup-form";
import { ResetPasswordForm } from "../../components/auth/reset-password-form";
import { EXPECTED_VOLUMES } from "../../lib/shared/access-volumes";
import { KEY_ENVS, LICENSING_ENVS, LICENSING_STATES, PLAN_IDS, ROLL_OVERLAPS } from "../../lib/shared/input-choices";
import { ROLES } from "../../lib/shared/roles";
import { createKey, createOwnKey } from "../../lib/domain/keys";
import { parseRole } from "../../lib/domain/team";
import { assertPlan } from "../../lib/domain/accounts";
import { passwordProblem } from "../../lib/domain/users";
import { deactivationReason } from "../../lib/domain/admin-accounts";
import type { Db } from "../../lib/db/client";
import type { Actor } from "../../lib/domain/audit";

const router = { push() {}, replace() {}, refresh() {}, back() {}, forward() {}, prefetch() {} };
function render(element: ReactElement): string {
  const withQuery = createElement(QueryClientProvider, { client: new QueryClient() }, element);
  return renderToStaticMarkup(createElement(AppRouterContext.Provider, { value: router as never }, withQuery));
}

/** The constraint attributes of the control named `name` (an input, textarea or select), as rendered. */
function renderedAttrs(html: string, name: string) {
  const tag = html.match(new RegExp(`<(input|textarea|select)[^>]*\\bname="${name}"[^>]*>`))?.[0];
  assert.ok(tag, `a control named ${name}`);
  const num = (attr: string) => {
    const m = tag.match(new RegExp(`\\b${attr}="(\\d+)"`));
    return m ? Number(m[1]) : undefined;
  };
  const pattern = tag.match(/\bpattern="([^"]*)"/)?.[1];
  return {
    required: /\brequired=""/.test(tag),
    ...(num("minLength") === undefined ? {} : { minLength: num("minLength") }),
    ...(num("maxLength") === undefined ? {} : { maxLength: num("maxLength") }),
    ...(pattern === undefined ? {} : { pattern }),
  };
}

/** The option values of the select named `name` (the empty placeholder left out). */
function renderedOptions(html: string, name: string): string[] {
  const select = html.match(new RegExp(`<select[^>]*\\bname="${name}"[\\s\\S]*?</select>`))?.[0] ?? "";
  return [...select.matchAll(/<option[^>]*value="([^"]*)"/g)].map((m) => m[1]).filter((v) => v !== "");
}

test("fieldAttrs reads required, lengths and a pattern; choicesOf a z.enum's values; lengthHint says them", () => {
  assert.deepEqual(fieldAttrs(boundedText(1, 80, "m")), { required: true, minLength: 1, maxLength: 80 });
  assert.deepEqual(fieldAttrs(z.string().max(9).optional()), { required: false, maxLength: 9 });
  assert.deepEqual(fieldAttrs(z.string().regex(/^[a-z]+$/)), { required: true, pattern: "^[a-z]+$" });
  assert.deepEqual(fieldAttrs(z.array(z.string()).max(20)), { required: true, maxLength: 20 });
  assert.deepEqual(choicesOf(z.enum(["b", "a"]).optional()), ["b", "a"]);
  assert.throws(() => choicesOf(z.string() as never), /not a z.enum/);
  assert.equal(lengthHint(boundedText(20, 2000, "m")), "20–2,000 characters");
  assert.equal(lengthHint(z.string().max(200)), "at most 200 characters");
});

test("every form field renders its schema's limits, and every choice field offers the schema's values", () => {
  const keyForm = render(createElement(CreateKeyForm, { envs: KEY_ENVS, onCreate() {}, busy: false, error: null }));
  assert.deepEqual(renderedAttrs(keyForm, "name"), fieldAttrs(createKeyBody.shape.name));
  const envs = [...keyForm.matchAll(/type="radio" id="env-([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(envs, choicesOf(createKeyBody.shape.env));

  const access = render(
    createElement(AccessForm, { volumes: EXPECTED_VOLUMES, onSubmit() {}, busy: false, error: null }),
  );
  for (const field of ["company", "useCase", "expectedVolume"] as const)
    assert.deepEqual(renderedAttrs(access, field), fieldAttrs(accessRequestBody.shape[field]), field);
  assert.deepEqual(renderedOptions(access, "expectedVolume"), choicesOf(accessRequestBody.shape.expectedVolume));
  assert.match(access, /20–2,000 characters/);

  const licensing = render(createElement(LicensingForm, { endpoints: [{ id: "e1", label: "GET /x" }] }));
  const reason = licensing.match(/<textarea[^>]*>|<input[^>]*id="[^"]*-reason"[^>]*>/)?.[0] ?? "";
  assert.match(reason, /maxLength="500"/);
  assert.equal(fieldAttrs(licensingChangeBody.shape.reason).maxLength, 500);
  const selects = [...licensing.matchAll(/<select[\s\S]*?<\/select>/g)].map((m) =>
    [...m[0].matchAll(/<option[^>]*value="([^"]*)"/g)].map((o) => o[1]),
  );
  assert.deepEqual(selects.slice(1), [
    choicesOf(licensingChangeBody.shape.env),
    choicesOf(licensingChangeBody.shape.state),
  ]);

  const signUp = render(createElement(SignUpForm, { terms: [] }));
  assert.deepEqual(renderedAttrs(signUp, "email"), fieldAttrs(signUpBody.shape.email));
  assert.deepEqual(renderedAttrs(signUp, "password"), fieldAttrs(newPassword));
  assert.match(signUp, /10 to 200 characters and hard to guess/);
  const reset = render(createElement(ResetPasswordForm, { token: "t" }));
  assert.deepEqual(renderedAttrs(reset, "password"), fieldAttrs(newPassword));
});

test("the schemas' choices are the domain's constants", () => {
  assert.deepEqual(choicesOf(createKeyBody.shape.env), [...KEY_ENVS]);
  assert.deepEqual(choicesOf(rollKeyBody.shape.overlap), Object.keys(ROLL_OVERLAPS));
  assert.deepEqual(choicesOf(accessRequestBody.shape.expectedVolume), Object.keys(EXPECTED_VOLUMES));
  assert.deepEqual(choicesOf(inviteBody.shape.role), [...ROLES]);
  assert.deepEqual(choicesOf(licensingChangeBody.shape.env), [...LICENSING_ENVS]);
  assert.deepEqual(choicesOf(licensingChangeBody.shape.state), [...LICENSING_STATES]);
  assert.equal(fieldAttrs(searchQuery.shape.q).maxLength, 200);
  assert.equal(fieldAttrs(auditReason()).minLength, 3);
  assert.deepEqual(fieldAttrs(auditQuery.shape.actor), { required: false, maxLength: 200 }, "the audit filters' limit");
  assert.deepEqual(PLAN_IDS, ["sandbox", "starter", "pro", "enterprise"]);
});

/** The refusal a domain function throws before it reaches the database (no database is given). */
async function refusal(fn: () => unknown): Promise<{ code?: string; message: string; field?: string }> {
  try {
    await fn();
  } catch (err) {
    const e = err as { code?: string; message: string; detail?: { field?: string } };
    return { code: e.code, message: e.message, field: e.detail?.field };
  }
  assert.fail("expected a refusal");
}

const noDb = null as unknown as Db;
const actor: Actor = { type: "user", id: "u1", role: "owner", requestId: "r1" } as Actor;

test("the key name limit is one number: the schema, the form, the domain's refusal and its hint", async () => {
  assert.equal(KEY_NAME_MAX, 80);
  assert.equal(fieldAttrs(createKeyBody.shape.name).maxLength, KEY_NAME_MAX);
  const keyForm = render(createElement(CreateKeyForm, { envs: ["test"], onCreate() {}, busy: false, error: null }));
  assert.equal(renderedAttrs(keyForm, "name").maxLength, KEY_NAME_MAX);
  assert.match(keyForm, new RegExp(`1–${KEY_NAME_MAX} characters`));
  const long = "k".repeat(KEY_NAME_MAX + 1);
  const tooLong = { code: "invalid", message: `A key name has 1–${KEY_NAME_MAX} characters.`, field: "name" };
  assert.deepEqual(
    await refusal(() => createOwnKey(noDb, { accountId: "a", userId: "u", env: "test", name: long }, actor)),
    tooLong,
  );
  assert.deepEqual(
    await refusal(() => createOwnKey(noDb, { accountId: "a", userId: "u", env: "test", name: "  " }, actor)),
    tooLong,
  );
  assert.deepEqual(await refusal(() => createKey(noDb, { accountId: "a", env: "test", name: long }, actor)), tooLong);
  // 80 characters pass the rule: the refusal that follows is the missing database, not the name.
  const atLimit = await refusal(() =>
    createOwnKey(noDb, { accountId: "a", userId: "u", env: "test", name: "k".repeat(KEY_NAME_MAX) }, actor),
  );
  assert.notEqual(atLimit.code, "invalid");
  // No converted form or domain module states a length of its own.
  for (const file of [
    "components/portal/keys/create-key-form.tsx",
    "components/portal/access/access-form.tsx",
    "components/admin/licensing-form.tsx",
    "components/admin/action-button.tsx",
    "components/auth/signup-form.tsx",
    "components/auth/reset-password-form.tsx",
    "components/portal/team/accept-invitation.tsx",
    "components/portal/team/invite-dialog.tsx",
    "lib/domain/keys.ts",
    "lib/domain/access-requests.ts",
  ])
    assert.doesNotMatch(readFileSync(file, "utf8"), /(max|min)Length=\{\d|KEY_NAME_MAX = |\b80\b/, file);
});

test("the domain refuses with its schema's rule and words, naming the field", async () => {
  assert.deepEqual(await refusal(() => parseRole("boss")), {
    code: "invalid",
    message: "Role is Owner, Admin, Developer or Viewer.",
    field: "role",
  });
  assert.deepEqual(await refusal(() => assertPlan("gold")), {
    code: "invalid",
    message: "plan must be one of sandbox, starter, pro, enterprise",
    field: "plan",
  });
  assert.deepEqual(await refusal(() => deactivationReason("inactive", " x ")), {
    code: "invalid",
    message: "Give a reason for the deactivation (3–500 characters).",
    field: "reason",
  });
  assert.equal(deactivationReason("active", undefined), undefined);
  assert.equal(passwordProblem("short"), "Use 10 to 200 characters for the password.");
  assert.equal(passwordProblem("p".repeat(201)), "Use 10 to 200 characters for the password.");
});
