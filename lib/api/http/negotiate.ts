/** Content negotiation by q-values (RFC 9110 §12.5): which of a few offered codings or media types a request accepts. */

/** The q-value the header gives `token` (exact, then `*` or `type/*`); 0 when it is not acceptable. */
export function qualityOf(header: string | null, token: string): number {
  if (!header) return 0;
  let wildcard = -1;
  let range = -1;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const value = Number.isFinite(q) ? Math.min(1, Math.max(0, q)) : 0;
    if (name === token) return value;
    if (name === "*" || name === "*/*") wildcard = value;
    else if (name.endsWith("/*") && token.startsWith(name.slice(0, -1))) range = value;
  }
  return range >= 0 ? range : Math.max(0, wildcard);
}

/** The coding to answer in: the best-rated of br and gzip (br on a tie), or null for identity. */
export function pickEncoding(acceptEncoding: string | null): "br" | "gzip" | null {
  const br = qualityOf(acceptEncoding, "br");
  const gzip = qualityOf(acceptEncoding, "gzip");
  if (br === 0 && gzip === 0) return null;
  return br >= gzip ? "br" : "gzip";
}
