/**
 * Form errors never show the API's names for fields (issue 28: no `ivRankAbove`): the webhook form's own checks and the
 * portal's refusals, as the form renders them, name each field in plain words; the portal's `field: ` prefix is left
 * out wherever a message is shown.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { check, friendly, RegisterForm } from "../../components/portal/webhooks/register-form";
import { ErrorNote } from "../../components/portal/error-note";
import { PortalApiError, plainMessage } from "../../components/portal/portal-fetch";
import { fieldMessage } from "../../components/admin/fields";
import { WEBHOOK_EVENTS } from "../../lib/contract/webhooks";
import type { KeyListItem } from "../../lib/domain/keys";

/** Names of the registration body's fields that are not also plain words. */
const API_NAMES = /ivRankAbove|ivRankBelow|ivChangeAbove|keyId|webhook\.|\(url\)|\(symbols\)|\(events\)/;

/** What a reader sees: the markup without its tags (attributes such as name="ivRankAbove" are not shown). */
const visibleText = (html: string) => html.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ");

const key: KeyListItem = {
  id: "key_1",
  name: "CI runner",
  prefix: "svc_test_abc",
  env: "test",
  state: "active",
  plan: "Sandbox",
  lastUsedAt: null,
  expiresAt: null,
} as KeyListItem;

function renderForm(error: unknown) {
  return visibleText(
    renderToStaticMarkup(
      createElement(RegisterForm, { keys: [key], events: WEBHOOK_EVENTS, busy: false, error, onRegister: () => {} }),
    ),
  );
}

/** The portal's refusal as the browser gets it: `{code, message, field}` with the message prefixed by the field path. */
const refusal = (field: string, message: string) =>
  new PortalApiError(400, "invalid", plainMessage(`${field}: ${message}`, field), field);

test("the form's own checks name every field in plain words", () => {
  const problems = check({ url: "not a url", events: ["iv_rank.crossed_above"], symbols: [], ivRankAbove: 150 });
  assert.deepEqual(Object.keys(problems).sort(), ["ivRankAbove", "symbols", "url"]);
  for (const message of Object.values(problems)) assert.doesNotMatch(message ?? "", API_NAMES);
  assert.equal(
    problems.ivRankAbove,
    "Enter a number from 0 to 100: the iv_rank.crossed_above event alerts when it is crossed.",
  );
});

test("a refusal on any field of the registration is shown in plain words, without the API's name", () => {
  const cases: [string, string][] = [
    ["webhook.ivRankAbove", "Too big: expected number to be <=100"],
    ["webhook.ivRankAbove", "required with iv_rank.crossed_above"],
    ["webhook.url", "webhook targets on private addresses are refused"],
    ["webhook.symbols.2", "must be a ticker symbol: 1–6 letters"],
    ["webhook.events", "events must not repeat"],
    ["webhook.description", "Too big: expected string to have <=200 characters"],
    ["keyId", "choose one of your active API keys"],
    ["webhook", "Invalid input"],
  ];
  for (const [field, message] of cases) {
    const text = renderForm(refusal(field, message));
    assert.doesNotMatch(text, API_NAMES, `${field}: ${text}`);
  }
  assert.match(renderForm(refusal("webhook.ivRankAbove", "Too big")), /Enter a number from 0 to 100/);
  assert.match(renderForm(refusal("webhook.symbols.2", "bad")), /Enter 1 to 50 ticker symbols/);
  // A refusal the form has no field for still shows, above the button.
  assert.match(renderForm(refusal("webhook", "invalid input")), /Invalid input/);
  for (const name of ["ivRankAbove", "ivRankBelow", "ivChangeAbove", "description", "keyId"] as const)
    assert.doesNotMatch(friendly(name, `${name}: x`), API_NAMES);
});

test("messages shown anywhere drop the portal's field path in front", () => {
  assert.equal(plainMessage("webhook.url: refused target", "webhook.url"), "Refused target");
  assert.equal(plainMessage("E-mail: Enter your e-mail address.", "email"), "E-mail: Enter your e-mail address.");
  assert.equal(plainMessage("No such key.", undefined), "No such key.");
  const note = visibleText(
    renderToStaticMarkup(createElement(ErrorNote, { error: refusal("origins.3", "not an origin") })),
  );
  assert.doesNotMatch(note, /origins\.3/);
  assert.match(note, /Not an origin/);
  assert.equal(fieldMessage({ field: "reason", message: "reason: Too small" }, "reason"), "Too small");
});
