/**
 * The one way a plan is named on every surface (errors, portal, docs, clients): the family-A name, the family-B tier
 * name in brackets when it differs ("Pro (API Pro)"), docs/api-contract.md §3.
 */
export function planName(plan: { nameA: string; nameB: string }): string {
  return plan.nameA === plan.nameB ? plan.nameA : `${plan.nameA} (${plan.nameB})`;
}
