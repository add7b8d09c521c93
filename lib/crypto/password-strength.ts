/**
 * How guessable a new password is (issue 30): zxcvbn-ts scoring over the common-password and diceware lists of
 * `@zxcvbn-ts/language-common`, with the user's own e-mail and name as extra words. A password must score at least
 * PASSWORD_MIN_SCORE (3 of 4: "safely unguessable", about 10^8 guesses and more) besides its 10–200 characters, so
 * `aaaaaaaaaa`, `password123` and `qwertyuiop12` are refused while a phrase of a few unrelated words passes.
 * docs/security.md "Passwords" states the rule.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { translations } from "@zxcvbn-ts/language-en";

export const PASSWORD_MIN_SCORE = 3;
/** Characters scored: past this a password is long enough to be strong, and scoring time grows with length. */
const SCORED_LENGTH = 64;

let engine: ZxcvbnFactory | undefined; // indexing the lists takes tens of milliseconds: done on first use
const zxcvbn = () => {
  engine ??= new ZxcvbnFactory({
    dictionary,
    graphs: adjacencyGraphs,
    translations,
    maxLength: SCORED_LENGTH,
  });
  return engine;
};

/** Why the password is too easy to guess, in plain words; undefined when it is strong enough. */
export function passwordWeakness(password: string, userInputs: string[] = []): string | undefined {
  const words = userInputs.flatMap((s) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 3);
  const { score, feedback } = zxcvbn().check(password.slice(0, SCORED_LENGTH), words);
  if (score >= PASSWORD_MIN_SCORE) return undefined;
  const why = feedback.warning ? ` (${feedback.warning.replace(/\.$/, "").toLowerCase()})` : "";
  return `This password is too easy to guess${why}. Use a longer phrase of a few unrelated words.`;
}
