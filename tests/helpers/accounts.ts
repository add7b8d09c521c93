/** Moved to fixtures/accounts.ts (shared with bench/ and scripts/); tests keep importing it from here. */
export * from "../../fixtures/accounts";
