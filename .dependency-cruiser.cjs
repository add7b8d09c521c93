// Layer rules for the product code (run by `npm run lint`; see README "Layout").
// Layers point down only: app/components/server/scripts -> lib/api, lib/portal, lib/auth, lib/server
// -> lib/domain -> lib/engine, lib/market -> lib/analytics -> lib/util.
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
        "lib/util, lib/shared (browser-safe constants) and lib/limits import nothing of the product but each other.",
      severity: "error",
      from: { path: "^lib/(util|shared|limits)/" },
      to: { path: "^(?!lib/(util|shared|limits)/)[^/]+/", dependencyTypesNot: ["npm", "core"] },
    },
    {
      name: "domain-not-web",
      comment: "lib/domain is called by the API, the portal, auth and the server; it imports none of them.",
      severity: "error",
      from: { path: "^lib/domain/" },
      to: { path: "^lib/(api|portal|auth|server)/" },
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
      comment: "lib/engine and lib/market sit under the domain and the web layers.",
      severity: "error",
      from: { path: "^lib/(engine|market)/" },
      to: { path: "^lib/(api|portal|auth|server|domain)/" },
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
