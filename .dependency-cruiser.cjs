// Layer rules for the product code (run by `npm run lint`; see README "Layout").
// Layers point down only: app/components/server/scripts -> lib/api, lib/portal, lib/auth, lib/server, lib/mail
// -> lib/domain -> lib/engine, lib/market, lib/webhooks -> lib/analytics -> lib/util. Every lib/ folder is named by a
// rule (tests/unit/layout-docs.test.ts checks it, and that the README's Layout names each folder).
const TEST_CODE = "^(tests|e2e)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "Modules form no import cycle (type-only imports included).",
      severity: "error",
      from: { path: "^(app|components|lib|server|scripts|bench|db)/" },
      to: { circular: true },
    },
    {
      name: "lib-not-upward",
      comment: "Nothing under lib/ imports the app, components, scripts, servers, benchmarks or tests.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components|scripts|server|bench|fixtures|tests|e2e)/" },
    },
    {
      name: "analytics-only-util",
      comment: "lib/analytics is pure maths: it imports only itself and lib/util.",
      severity: "error",
      from: { path: "^lib/analytics/" },
      to: { path: "^(?!lib/(analytics|util)/)[^/]+/", dependencyTypesNot: ["npm", "core"] },
    },
    {
      name: "leaves-stay-leaves",
      comment:
        "lib/util, lib/shared (browser-safe constants), lib/limits, lib/keys (key format), lib/http (bounded bodies), lib/crypto and lib/metrics (the process's metrics registry) import nothing of the product but each other.",
      severity: "error",
      from: { path: "^lib/(util|shared|limits|keys|http|crypto|metrics)/" },
      to: {
        path: "^(?!lib/(util|shared|limits|keys|http|crypto|metrics)/)[^/]+/",
        dependencyTypesNot: ["npm", "core"],
      },
    },
    {
      name: "domain-not-web",
      comment: "lib/domain is called by the API, the portal, auth and the server; it imports none of them.",
      severity: "error",
      from: { path: "^lib/domain/" },
      to: { path: "^lib/(api|portal|auth|server|mail)/" },
    },
    {
      name: "portal-not-api",
      comment: "lib/portal sits beside the API gateway: both call the domain, neither calls the other's routes.",
      severity: "error",
      from: { path: "^lib/portal/" },
      to: { path: "^lib/api/" },
    },
    {
      name: "engine-market-not-above",
      comment:
        "lib/engine, lib/market and lib/webhooks (outbox, delivery worker) sit under the domain and the web layers.",
      severity: "error",
      from: { path: "^lib/(engine|market|webhooks)/" },
      to: { path: "^lib/(api|portal|auth|server|domain|mail)/" },
    },
    {
      name: "mail-beside-web",
      comment: "lib/mail (account mail, its queue) calls the domain; only entry points (app/, scripts/) call it.",
      severity: "error",
      from: { path: "^lib/(?!mail/)" },
      to: { path: "^lib/mail/" },
    },
    {
      name: "security-low",
      comment:
        "lib/security (headers, origins, client addresses) reads only configuration: no layer above it, no store.",
      severity: "error",
      from: { path: "^lib/security/" },
      to: { path: "^lib/(api|portal|auth|server|mail|domain|engine|market|webhooks|db)/" },
    },
    {
      name: "contract-low",
      comment: "lib/contract (the public schemas) imports only lib/analytics' types, lib/util and lib/shared.",
      severity: "error",
      from: { path: "^lib/contract/" },
      to: { path: "^(?!lib/(contract|analytics|util|shared)/)[^/]+/", dependencyTypesNot: ["npm", "core"] },
    },
    {
      name: "tools-not-tests",
      comment: "scripts/, bench/ and the shared fixtures/ import no test code.",
      severity: "error",
      from: { path: "^(scripts|bench|fixtures)/" },
      to: { path: TEST_CODE },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|dist|\\.data|clients/[^/]+/generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
