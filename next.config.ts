import type { NextConfig } from "next";
import { API_CSP, commonSecurityHeaders } from "./lib/security/headers";

const nextConfig: NextConfig = {
  // The database driver and the embedded engine stay outside the bundle: they hold native state and sockets; so does
  // prom-client, whose one registry (lib/metrics/registry.ts) every route bundle shares.
  serverExternalPackages: [
    "postgres",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg-boss",
    "pg",
    "prom-client",
  ],
  poweredByHeader: false,
  // The app build checks the app's own sources; `npm test` typechecks the whole project, tests included, with the route
  // types `next typegen` writes (the ones a build checks), and then sets NEXT_BUILD_TYPECHECKED=1 so the builds its
  // suites start do not check the same sources again (about 24 s of CPU each).
  typescript: { tsconfigPath: "tsconfig.app.json", ignoreBuildErrors: process.env.NEXT_BUILD_TYPECHECKED === "1" },
  reactStrictMode: true,
  async headers() {
    return [
      { source: "/:path*", headers: commonSecurityHeaders(process.env.NODE_ENV === "production") },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
    ];
  },
};

export default nextConfig;
