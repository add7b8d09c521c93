/**
 * Query inputs arrive as text and are validated as text (so `abc`, `-5` and `1.5` keep their exact 400s), yet mean a
 * number: this metadata key tells the reference (lib/api/openapi.ts) to document them as that number with its bounds.
 */
export const DOCUMENTED_NUMBER = "x-documented-number";

export type DocumentedNumber = {
  type: "integer" | "number";
  minimum?: number;
  exclusiveMinimum?: number;
  maximum: number;
};
