/**
 * Copy-as-code for one call in curl, TypeScript and Python, from the generated operation table, so the API
 * reference's quick start and the playground show the same call three ways. The key is never embedded: every sample
 * reads it from an environment variable (API_KEY unless told).
 */
import { OPERATIONS, type OperationId } from "../typescript/src/generated/operations";

export type SampleParams = Record<string, unknown>;

export interface CodeSamples {
  curl: string;
  typescript: string;
  python: string;
}

/** The environment variable the samples read the key from; the playground's curl already uses `$API_KEY`. */
export const DEFAULT_KEY_ENV = "API_KEY";
const PY_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function py(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (Array.isArray(v)) return `[${v.map(py).join(", ")}]`;
  if (typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${py(x)}`)
      .join(", ")}}`;
  return JSON.stringify(v);
}

function ts(v: SampleParams): string {
  const entries = Object.entries(v);
  if (entries.length === 0) return "";
  const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
  return `{ ${entries.map(([k, x]) => `${key(k)}: ${JSON.stringify(x)}`).join(", ")} }`;
}

/** The operation id of a route, e.g. `operationIdFor("GET", "/api/v1/options-flow")` → `listOptionsFlow`. */
export function operationIdFor(method: string, path: string): OperationId | null {
  const found = (Object.keys(OPERATIONS) as OperationId[]).find(
    (id) => OPERATIONS[id].method === method.toUpperCase() && OPERATIONS[id].path === path,
  );
  return found ?? null;
}

/** The three samples for `operationId` called with `params` (API names, as the methods take them). */
export function codeSamples(
  operationId: OperationId,
  params: SampleParams,
  baseUrl: string,
  { keyEnv = DEFAULT_KEY_ENV }: { keyEnv?: string } = {},
): CodeSamples {
  const KEY_ENV = keyEnv;
  const op = OPERATIONS[operationId];
  const given = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== ""));
  const base = baseUrl.replace(/\/+$/, "");
  let path: string = op.path;
  for (const name of op.pathParams) path = path.replace(`{${name}}`, encodeURIComponent(String(given[name] ?? "")));
  const query = new URLSearchParams();
  for (const name of op.queryParams) if (given[name] !== undefined) query.set(name, String(given[name]));
  const body = Object.fromEntries(op.bodyFields.filter((n) => given[n] !== undefined).map((n) => [n, given[n]]));
  const url = `${base}${path}${query.toString() ? `?${query}` : ""}`;

  const curl = [
    `curl -sS${op.method === "GET" ? "" : ` -X ${op.method}`} ${shellQuote(url)}`,
    ...(op.authenticated ? [`-H "Authorization: Bearer $${KEY_ENV}"`] : []),
    ...(op.hasBody ? [`-H 'Content-Type: application/json'`] : []),
    ...(op.method === "POST" || op.method === "PATCH" ? [`-H "Idempotency-Key: $(uuidgen)"`] : []),
    ...(op.hasBody ? [`-d ${shellQuote(JSON.stringify(body))}`] : []),
  ].join(" \\\n  ");

  if (operationId === "openStream") return streamSamples(curl.replace("curl -sS", "curl -sSN"), KEY_ENV, base, given);

  const typescript = [
    `import { createClient } from "@options-research/client";`,
    "",
    `const api = createClient({ apiKey: process.env.${KEY_ENV}!, baseUrl: ${JSON.stringify(base)} });`,
    `const { data, disclaimer, dataLabel } = await api.${operationId}(${ts(given)});`,
    "console.log(data, dataLabel);",
    "console.log(disclaimer); // show it with the analytics",
  ].join("\n");

  const kwargs = pyKwargs(given);
  const python = [
    "import os",
    "from options_research import Client",
    "",
    `client = Client(api_key=os.environ[${JSON.stringify(KEY_ENV)}], base_url=${JSON.stringify(base)})`,
    `result = client.${snake(operationId)}(${kwargs})`,
    "print(result.data, result.data_label)",
    "print(result.disclaimer)  # show it with the analytics",
  ].join("\n");

  return { curl, typescript, python };
}

/** The stream is read as it arrives: an async iterator in TypeScript, a generator in Python (both resume by id). */
function streamSamples(curl: string, KEY_ENV: string, base: string, given: Record<string, unknown>): CodeSamples {
  const typescript = [
    `import { createClient } from "@options-research/client";`,
    "",
    `const api = createClient({ apiKey: process.env.${KEY_ENV}!, baseUrl: ${JSON.stringify(base)} });`,
    `for await (const ev of api.openStream(${ts(given)})) {`,
    "  console.log(ev.id, ev.type, ev.symbol, ev.data);",
    "}",
  ].join("\n");
  const kwargs = pyKwargs(given);
  const python = [
    "import os",
    "from options_research import Client",
    "",
    `client = Client(api_key=os.environ[${JSON.stringify(KEY_ENV)}], base_url=${JSON.stringify(base)})`,
    `for ev in client.open_stream(${kwargs}):`,
    '    print(ev["id"], ev["type"], ev["symbol"], ev["data"])',
  ].join("\n");
  return { curl, typescript, python };
}

const pyKwargs = (given: Record<string, unknown>) =>
  Object.entries(given)
    .map(([k, v]) => `${PY_KEYWORDS.has(k) ? `${k}_` : k}=${py(v)}`)
    .join(", ");
