/** A domain rule was broken by the caller's input (CLI, portal, admin console turn it into their own error shape). */
export class DomainError extends Error {
  constructor(
    readonly code: "not_found" | "conflict" | "invalid",
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}
