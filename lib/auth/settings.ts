/** Auth settings read from the environment (no imports of the Auth.js runtime, so pages and scripts can use them). */

export const githubConfigured = () => Boolean(process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET);

/** Secure cookies under `next start`; AUTH_INSECURE_COOKIES=true allows plain-HTTP use on a local machine. */
export const secureCookies = () =>
  process.env.NODE_ENV === "production" && process.env.AUTH_INSECURE_COOKIES !== "true";

/** Production without AUTH_SECRET stops the server at start with this one-line reason (null when fine). */
export function missingSecretReason(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.NODE_ENV !== "production" || env.AUTH_SECRET) return null;
  return "AUTH_SECRET is required in production: set it to 32+ random bytes (e.g. `openssl rand -base64 32`); `npm start` generates one in the data directory.";
}

/** Production without SMTP_URL would write reset links to the log: refused unless MAIL_TO_LOG=on says that is wanted. */
export function missingMailReason(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.NODE_ENV !== "production" || env.SMTP_URL || env.MAIL_TO_LOG === "on") return null;
  return "SMTP_URL is required in production (reset and verification links would otherwise go to the log): set SMTP_URL, or MAIL_TO_LOG=on to log them deliberately.";
}

/** The Next server's start: production without AUTH_SECRET, or without SMTP_URL (and MAIL_TO_LOG=on), stops here with the reason on one line. */
export function exitWithoutSecret(): void {
  const reason = missingSecretReason() ?? missingMailReason();
  if (!reason) return;
  process.stderr.write(`${reason}\n`);
  process.exit(1);
}
