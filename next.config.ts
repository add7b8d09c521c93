import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The database driver and the embedded engine stay outside the bundle: they hold native state and sockets.
  serverExternalPackages: ["postgres", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  poweredByHeader: false,
  // The app build checks the app's own sources; `npm test` typechecks the whole project, tests included.
  typescript: { tsconfigPath: "tsconfig.app.json" },
  reactStrictMode: true,
};

export default nextConfig;
