/** A new password field's constraints and hint, from the length rule the domain applies (lib/contract/portal-inputs.ts). */
import { fieldAttrs } from "@/lib/contract/field-attrs";
import { newPassword } from "@/lib/contract/portal-inputs";

const attrs = fieldAttrs(newPassword);

export const NEW_PASSWORD_FIELD = {
  ...attrs,
  hint: `${attrs.minLength} to ${attrs.maxLength} characters and hard to guess: a few unrelated words work well.`,
};
