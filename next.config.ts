import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The database driver and the embedded engine stay outside the bundle: they hold native state and sockets.
  serverExternalPackages: ["postgres", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
