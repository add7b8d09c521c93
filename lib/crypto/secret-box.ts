/**
 * Secrets kept at rest only until they are shown (an issued key awaiting its requester): AES-256-GCM with a key derived
 * from AUTH_SECRET by HKDF-SHA-256, one derived key per purpose, the row it belongs to bound in as associated data.
 */
import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

function derive(secret: string, purpose: string): Buffer {
  if (secret.length < 16) throw new Error("AUTH_SECRET is too short to derive an encryption key from");
  return Buffer.from(hkdfSync("sha256", secret, "options-research-api/secret-box", purpose, 32));
}

/** Encrypts `plaintext` for `purpose`; `context` (e.g. a row id) must be given again to open it. */
export function seal(plaintext: string, secret: string, purpose: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derive(secret, purpose), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    VERSION,
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(".");
}

/** Decrypts what seal produced; throws if the secret, purpose or context differ or the text was altered. */
export function open(sealed: string, secret: string, purpose: string, context: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("not a sealed value");
  const decipher = createDecipheriv("aes-256-gcm", derive(secret, purpose), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** The app's AUTH_SECRET (the web app always has it in its environment; the CLI also looks in the data directory). */
export function readAuthSecret(env: NodeJS.ProcessEnv = process.env): string {
  if (!env.AUTH_SECRET) throw new Error("AUTH_SECRET is not set: set the same AUTH_SECRET as the app");
  return env.AUTH_SECRET;
}
