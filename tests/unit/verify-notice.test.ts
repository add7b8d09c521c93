/** "We sent" only when a mail went out (issue 28): the dashboard's verification notice and the sign-up form's note. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { signUpSentNote, VERIFY_NEEDS, verifyNotice } from "../../lib/shared/verify-notice";

const email = "dev@example.com";

test("the dashboard says a link was sent only for a live link sent by mail", () => {
  assert.equal(
    verifyNotice({ email, linkWaiting: true, delivery: "smtp" }),
    `We sent a link to ${email}. ${VERIFY_NEEDS}`,
  );
  for (const input of [
    { email, linkWaiting: true, delivery: "log" as const },
    { email, linkWaiting: false, delivery: "smtp" as const },
    { email, linkWaiting: false, delivery: "log" as const },
  ])
    assert.doesNotMatch(verifyNotice(input), /sent a link|link is on its way/, JSON.stringify(input));
  assert.match(verifyNotice({ email, linkWaiting: true, delivery: "log" }), /no mail was sent: .+ in the server log/);
  assert.match(verifyNotice({ email, linkWaiting: false, delivery: "smtp" }), /^No verification link is waiting/);
});

test("the sign-up form says a message was sent only when this server sends mail", () => {
  assert.match(
    signUpSentNote(email, "smtp"),
    /^We sent a message to dev@example\.com\. If you already have an account/,
  );
  assert.doesNotMatch(signUpSentNote(email, "log"), /We sent/);
  assert.match(signUpSentNote(email, "log"), /no mail was sent: the message for dev@example\.com is in the server log/);
});
