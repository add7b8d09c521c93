/** Route groups in the reference's order, named for what the routes do; service routes last. */
const GROUPS: [string, RegExp][] = [
  ["Research", /^\/api\/v1\/(ticker|signal-score|options-flow)/],
  ["History", /^\/api\/v1\/history\//],
  ["AI analysis", /^\/api\/v1\/ai\//],
  ["Market data", /^\/api\/v1\/data\//],
  ["Strategy outputs", /^\/api\/v1\/outputs/],
  ["Discovery", /^\/api\/v1\/symbols/],
  ["Webhooks", /^\/api\/v1\/alerts/],
  ["Live stream", /^\/api\/v1\/stream/],
  ["Service", /./],
];

export const GROUP_ORDER = GROUPS.map(([name]) => name);

export function groupOf(path: string): string {
  return (GROUPS.find(([, re]) => re.test(path)) ?? GROUPS[GROUPS.length - 1])[0];
}
