/** A question the engine cannot answer; the API turns the code into its own error code (lib/api/errors.ts). */
export type EngineErrorCode = "invalid" | "symbol_not_found" | "unavailable";

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    /** The request body field at fault, when there is one. */
    readonly detail: { field?: string } = {},
  ) {
    super(message);
    this.name = "EngineError";
  }
}
