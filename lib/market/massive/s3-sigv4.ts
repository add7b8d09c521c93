/**
 * AWS Signature Version 4 for one S3 GET of an object (the header form, "Authenticating Requests: Using the Authorization
 * Header", https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html), with node:crypto only.
 * Massive's flat files are served by an S3-compatible endpoint that takes these signatures with its own S3 keys.
 * The secret only ever enters the HMAC chain; it is in no header, URL or message.
 */
import { createHash, createHmac } from "node:crypto";

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

const EMPTY_SHA256 = createHash("sha256").update("").digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();
const amzDate = (now: Date) =>
  now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
/** S3's canonical URI: each path segment URI-encoded once (RFC 3986 unreserved characters kept). */
const canonicalPath = (path: string) =>
  path
    .split("/")
    .map((s) =>
      encodeURIComponent(decodeURIComponent(s)).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join("/");

/**
 * The headers that sign `GET url` (no query string, empty body): `x-amz-date`, `x-amz-content-sha256`, `authorization`,
 * plus the `extra` headers, which are signed too. `host` is signed as the URL's host; fetch sends it.
 */
export function signS3Get(
  url: URL,
  creds: S3Credentials,
  now: Date,
  extra: Record<string, string> = {},
): Record<string, string> {
  const date = amzDate(now);
  const scope = `${date.slice(0, 8)}/${creds.region}/s3/aws4_request`;
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k.toLowerCase(), v.trim()])),
    host: url.host,
    "x-amz-content-sha256": EMPTY_SHA256,
    "x-amz-date": date,
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    "GET",
    canonicalPath(url.pathname),
    "",
    ...names.map((n) => `${n}:${headers[n]}`),
    "",
    names.join(";"),
    EMPTY_SHA256,
  ].join("\n");
  const toSign = ["AWS4-HMAC-SHA256", date, scope, createHash("sha256").update(canonical).digest("hex")].join("\n");
  let key = hmac(`AWS4${creds.secretAccessKey}`, date.slice(0, 8));
  for (const part of [creds.region, "s3", "aws4_request"]) key = hmac(key, part);
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  const { host: _host, ...sent } = headers;
  return {
    ...sent,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope},SignedHeaders=${names.join(";")},Signature=${signature}`,
  };
}
