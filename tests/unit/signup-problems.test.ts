/** Sign-up names every invalid field in plain words: never an empty pair of quotes, never only the first problem. */
import { test } from "node:test";
import assert from "node:assert/strict";
import "../../fixtures/test-secret";
import { signUpProblems } from "../../lib/domain/users";

test("an empty form names all three fields, in plain words", () => {
  const problems = signUpProblems({ email: "", password: "", acceptTerms: false });
  assert.deepEqual(Object.keys(problems), ["email", "password", "acceptTerms"]);
  assert.equal(problems.email, "Enter your e-mail address.");
  assert.equal(problems.password, "Use 10 to 200 characters for the password.");
  assert.equal(problems.acceptTerms, "Accept the terms of use to create an account.");
  for (const m of Object.values(problems)) assert.doesNotMatch(m, /''|""/);
});

test("a wrong address is quoted as typed, and a good form has no problems", () => {
  assert.deepEqual(signUpProblems({ email: " Bob@ ", password: "a long enough password", acceptTerms: true }), {
    email: "bob@ is not an e-mail address; it looks like name@example.com.",
  });
  assert.deepEqual(
    signUpProblems({ email: "a@example.com", password: "a long enough password", acceptTerms: true }),
    {},
  );
});

test("a long but guessable password is refused with the reason, in plain words (issue 30)", () => {
  for (const weak of ["aaaaaaaaaa", "password123", "qwertyuiop12", "1234567890", "Password2024"]) {
    const problem = signUpProblems({ email: "a@example.com", password: weak, acceptTerms: true }).password;
    assert.match(problem ?? "", /^This password is too easy to guess( \(.+\))?\. Use a longer phrase/, weak);
    assert.doesNotMatch(problem ?? "", /''|""/);
  }
  assert.match(
    signUpProblems({ email: "a@example.com", password: "1234567890", acceptTerms: true }).password ?? "",
    /\(this is a frequently used password\)/,
  );
});

test("the user's own e-mail and name count as guessable words", () => {
  const input = { password: "northwindtrader", acceptTerms: true };
  assert.equal(signUpProblems({ ...input, email: "a@example.com" }).password, undefined);
  assert.match(signUpProblems({ ...input, email: "northwind.trader@example.com" }).password ?? "", /too easy to guess/);
});

test("phrases of a few unrelated words pass", () => {
  for (const strong of ["a long enough password", "another passphrase", "my brand new password", "my own password 123"])
    assert.deepEqual(signUpProblems({ email: "a@example.com", password: strong, acceptTerms: true }), {}, strong);
});
