/**
 * A form control's HTML constraints read from the zod schema that validates the same field on the server, so a form
 * never restates a limit: `<input {...fieldAttrs(createKeyBody.shape.name)} />`. Browser-safe: zod only.
 */
import { z } from "zod";

export interface FieldAttrs {
  required: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

type Check = {
  _zod: { def: { check: string; minimum?: number; maximum?: number; format?: string; pattern?: RegExp } };
};

/** The schema under optional/default/nullable wrappers, and whether a value may be left out. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean } {
  let inner = schema;
  let optional = false;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) {
    optional = true;
    inner = (inner as z.ZodOptional<z.ZodType>).unwrap();
  }
  return { inner, optional };
}

const checksOf = (schema: z.ZodType): Check[] => (schema._zod.def as { checks?: Check[] }).checks ?? [];

/** `required`, `minLength`, `maxLength` and `pattern` of a string field (length limits of an array field too). */
export function fieldAttrs(schema: z.ZodType): FieldAttrs {
  const { inner, optional } = unwrap(schema);
  const attrs: FieldAttrs = { required: !optional };
  for (const check of checksOf(inner)) {
    const def = check._zod.def;
    if (def.check === "min_length") attrs.minLength = def.minimum;
    if (def.check === "max_length") attrs.maxLength = def.maximum;
    if (def.check === "string_format" && def.format === "regex" && def.pattern) attrs.pattern = def.pattern.source;
  }
  return attrs;
}

/** The values a choice field accepts (a `z.enum`), in the schema's order. */
export function choicesOf<T extends string>(schema: z.ZodType<T | undefined>): T[] {
  const { inner } = unwrap(schema);
  if (!(inner instanceof z.ZodEnum)) throw new Error("choicesOf: the field is not a z.enum");
  return inner.options as T[];
}

const count = (n: number) => n.toLocaleString("en-US");

/** A length rule in words for a field's hint: "1–80 characters", "20–2,000 characters", "at most 200 characters". */
export function lengthHint(schema: z.ZodType): string {
  const { minLength, maxLength } = fieldAttrs(schema);
  if (minLength && maxLength) return `${count(minLength)}–${count(maxLength)} characters`;
  if (maxLength) return `at most ${count(maxLength)} characters`;
  return minLength ? `at least ${count(minLength)} characters` : "";
}

/** A trimmed text of min–max characters; every refusal (absent, not text, too short, too long) says `message`. */
export const boundedText = (min: number, max: number, message: string) =>
  z.string({ error: message }).trim().min(min, message).max(max, message);

/** One of fixed values; every refusal says `message` (or the message a function chooses from the input). */
export const choice = <const T extends readonly [string, ...string[]]>(
  values: T,
  message: string | ((input: unknown) => string),
) => z.enum(values, { error: (issue) => (typeof message === "string" ? message : message(issue.input)) });

/** What a form sends for a schema: its fields, a choice as the text chosen (the route names a bad one in its refusal). */
export type FormValues<S extends z.ZodType> = {
  [K in keyof z.input<S>]: z.input<S>[K] extends string ? string : z.input<S>[K];
};
