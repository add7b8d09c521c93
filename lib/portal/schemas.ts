/** The portal routes' request schemas live in lib/contract/portal-inputs.ts, where the domain and the forms read them. */
export * from "../contract/portal-inputs";
