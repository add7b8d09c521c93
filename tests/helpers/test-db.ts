/** Moved to fixtures/test-db.ts (shared with bench/ and scripts/); tests keep importing it from here. */
export * from "../../fixtures/test-db";
