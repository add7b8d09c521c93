/** An account's states in words (browser-safe): an operator deactivates (reversible), the Owner deletes (final). */
export const ACCOUNT_STATUS_LABELS = { active: "Active", inactive: "Deactivated", deleted: "Deleted" } as const;
export type AccountStatus = keyof typeof ACCOUNT_STATUS_LABELS;
