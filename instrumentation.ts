/**
 * Starts the gateway when the Next server boots (not on the first request), so migrations, the analytics views and
 * the real-time demo ticker are running before anyone calls the API. Route handlers share the same instance.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  (await import("./lib/security/peer-stamp")).installPeerStamp(); // the socket address for TRUSTED_PROXIES=0
  (await import("./lib/security/slow-clients")).installSlowClientGuard(); // slowloris bounds node's checks lack
  if (process.env.NEXT_PHASE !== "phase-production-build") (await import("./lib/auth/settings")).exitWithoutSecret();
  (await import("./lib/server/process-guard")).exitOnUnexpectedErrors("next server", { rejections: false });
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { sharedGateway, startedSharedGateway } = await import("./lib/server/gateway");
  const { drainNextOnSignals } = await import("./lib/server/next-shutdown");
  drainNextOnSignals((await import("./lib/env")).appEnv().SHUTDOWN_GRACE_MS, startedSharedGateway);
  if (!process.env.DATABASE_URL) return;
  const { errorFields, log } = await import("./lib/log");
  // Not awaited: the server starts listening meanwhile; early API calls wait on the same promise.
  sharedGateway().catch((err) => log.error("gateway failed to start", errorFields(err)));
}
