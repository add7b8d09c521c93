/** The admin routes' request schemas live in lib/contract/admin-inputs.ts, where the domain and the forms read them. */
export * from "../contract/admin-inputs";
