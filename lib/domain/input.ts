/**
 * A domain function's input checked by the schema its route parses with (lib/contract/*-inputs.ts), so callers that
 * skip the route (the CLI, jobs, tests) meet the same rules and messages: a refusal is `invalid` naming the field.
 */
import "server-only";
import type { z } from "zod";
import { DomainError } from "./errors";

/** A domain function's input as its callers send it: the schema's fields, values not yet checked (parseInput checks). */
export type Unchecked<T> = { [K in keyof T]: unknown };

export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") || undefined;
  throw new DomainError("invalid", issue?.message ?? "Invalid input.", field ? { field } : {});
}
