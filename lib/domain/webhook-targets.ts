/** Which URLs a webhook may be registered with: https (plain http only in development with private targets allowed), and no refused address. */
import "server-only";
import { appEnv } from "../env";
import { isIP } from "node:net";
import { alwaysRefusedRange, checkTargetHost, isLoopbackHost, type Resolver } from "../webhooks/address-policy";
import { DomainError } from "./errors";

export interface TargetPolicy {
  allowPrivate: boolean;
  production: boolean;
  /**
   * The server itself listens on loopback only (the embedded default): a test webhook may then target this machine,
   * over http too, like `stripe listen`. Never a live webhook.
   */
  testLoopback?: boolean;
  resolver?: Resolver;
}

/** null when the URL is acceptable, else why not (for a 400 on the `url` field). */
export async function checkWebhookUrl(
  raw: string,
  policy: TargetPolicy,
  env: "test" | "live" = "live",
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (
    env === "test" &&
    policy.testLoopback &&
    isLoopbackHost(url.hostname) &&
    ["http:", "https:"].includes(url.protocol)
  )
    return url.username || url.password ? "must not carry credentials" : null;
  const httpAllowed = policy.allowPrivate && !policy.production;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && httpAllowed)) {
    return "must be an https URL (plain http only in development with WEBHOOKS_ALLOW_PRIVATE_TARGETS=true)";
  }
  if (url.username || url.password) return "must not carry credentials";
  if (policy.allowPrivate) {
    // Even where private targets are allowed (development), link-local and cloud-metadata addresses stay refused.
    const literal = url.hostname.replace(/^\[|\]$/g, "");
    const always = isIP(literal) ? alwaysRefusedRange(literal) : null;
    return always ? `refused: ${always} (link-local and metadata addresses are never reachable)` : null;
  }
  const refused = await checkTargetHost(url.hostname, policy.resolver);
  return refused
    ? `refused: ${refused} (private, loopback, link-local, CGNAT and metadata addresses are not reachable)`
    : null;
}

/** The policy this deployment runs with: WEBHOOKS_ALLOW_PRIVATE_TARGETS, NODE_ENV and whether HOST is loopback. */
export function deploymentTargetPolicy(): TargetPolicy {
  const env = appEnv();
  return {
    allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    production: env.NODE_ENV === "production",
    testLoopback: isLoopbackHost(env.HOST),
  };
}

/** Throws a DomainError on the URL field (`field` names it in the caller's body) when the URL is not acceptable. */
export async function requireWebhookTarget(
  url: string,
  policy: TargetPolicy,
  field = "url",
  env: "test" | "live" = "live",
): Promise<void> {
  const refused = await checkWebhookUrl(url, policy, env);
  if (refused) throw new DomainError("invalid", `${refused}.`, { field });
}
