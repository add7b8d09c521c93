/**
 * A required field is marked (issue 28): on every form rendered here, each control with `required` has a label that
 * says "(required)", and the mark is left out of the control's accessible name (the control says it is required).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Field } from "../../components/auth/field";
import { SelectField, TextField } from "../../components/admin/fields";
import { AccessForm } from "../../components/portal/access/access-form";
import { CreateKeyForm } from "../../components/portal/keys/create-key-form";
import { RegisterForm } from "../../components/portal/webhooks/register-form";
import { WEBHOOK_EVENTS } from "../../lib/contract/webhooks";
import type { KeyListItem } from "../../lib/domain/keys";

const key = { id: "key_1", name: "CI runner", prefix: "svc_test_abc", env: "test", state: "active" } as KeyListItem;
const noop = () => {};

const forms: [string, ReactElement][] = [
  ["sign-up fields", createElement(Field, { label: "E-mail", name: "email", required: true })],
  [
    "webhook registration",
    createElement(RegisterForm, { keys: [key], events: WEBHOOK_EVENTS, busy: false, error: null, onRegister: noop }),
  ],
  [
    "access request",
    createElement(AccessForm, { volumes: { "1k_10k": "1k–10k" }, onSubmit: noop, busy: false, error: null }),
  ],
  ["create key", createElement(CreateKeyForm, { envs: ["test"], onCreate: noop, busy: false, error: null })],
  ["admin reason", createElement(TextField, { id: "reason", label: "Reason", required: true })],
  [
    "admin plan",
    createElement(SelectField, { id: "plan", label: "Plan", required: true, options: ["sandbox", "pro"] }),
  ],
];

/** The label element for each id, with its text. */
function labels(html: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of html.matchAll(/<label[^>]*\bfor="([^"]+)"[^>]*>([\s\S]*?)<\/label>/g))
    found.set(m[1], m[2].replace(/<[^>]*>/g, ""));
  return found;
}

test("every required control's label says (required)", () => {
  for (const [name, form] of forms) {
    const html = renderToStaticMarkup(form);
    const required = [...html.matchAll(/<(input|select|textarea)\b[^>]*\brequired=""[^>]*>/g)].map(
      (m) => /\bid="([^"]+)"/.exec(m[0])?.[1] ?? "(no id)",
    );
    assert.ok(required.length > 0, `${name}: has a required control`);
    const byId = labels(html);
    for (const id of required) assert.match(byId.get(id) ?? "", /\(required\)/, `${name}: #${id}'s label`);
    // Optional fields are not marked.
    for (const [id, text] of byId)
      if (!required.includes(id)) assert.doesNotMatch(text, /\(required\)/, `${name}: #${id}`);
    // The mark is for the eye; the control's `required` tells assistive technology.
    assert.match(html, /<span aria-hidden="true"[^>]*> \(required\)<\/span>/, name);
  }
});
