import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Authenticated encryption at rest for secrets the portal must read back (playground keys, access-request keys).
 * AES-256-GCM; the key is HKDF-SHA256(AUTH_SECRET, info = purpose), so a value sealed for one purpose never opens
 * under another. Sealed form: `v1.<iv>.<ciphertext>.<tag>` (base64url), safe to store in a text column.
 */
const VERSION = "v1";
const SALT = "options-research/secret-box/v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new Map<string, Buffer>();

function authSecret(): string {
  const secret = process.env.AUTH_SECRET;
  if (!secret || secret.length < 16) throw new Error("AUTH_SECRET is not set (at least 16 characters): cannot seal or open secrets");
  return secret;
}

function keyFor(purpose: string): Buffer {
  if (!/^[a-z0-9][a-z0-9:._-]{0,63}$/.test(purpose)) throw new Error(`secret-box: invalid purpose "${purpose}"`);
  const secret = authSecret();
  const cacheKey = `${secret}\u0000${purpose}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, SALT, purpose, 32));
    keys.set(cacheKey, key);
  }
  return key;
}

/** Encrypts `plaintext` for `purpose` (e.g. "playground-key"); every call uses a fresh random IV. */
export function seal(plaintext: string, purpose: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(purpose), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
}

/** Decrypts a value from `seal`; throws on a wrong purpose, a changed AUTH_SECRET or any tampering. */
export function open(sealed: string, purpose: string): string {
  const parts = sealed.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error("secret-box: not a sealed value");
  const [, ivText, bodyText, tagText] = parts;
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error("secret-box: not a sealed value");
  const decipher = createDecipheriv("aes-256-gcm", keyFor(purpose), iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(bodyText, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("secret-box: the value does not open (wrong purpose, changed AUTH_SECRET or tampered)");
  }
}
