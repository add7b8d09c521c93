/**
 * The playground's operations and form fields, derived from the OpenAPI document (lib/api/openapi.ts), and the request
 * path built from a form's values. Pure: the page, the browser (copy-as-code) and the portal route share it.
 */
export type FieldKind = "text" | "number" | "integer" | "enum" | "enum-list" | "list" | "number-list";

export interface PlaygroundField {
  name: string;
  in: "path" | "query" | "body";
  required: boolean;
  description?: string;
  kind: FieldKind;
  options?: string[];
  example?: string;
}

export interface PlaygroundOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  family: "A" | "B";
  authenticated: boolean;
  fields: PlaygroundField[];
  hasBody: boolean;
}

/** The parts of an OpenAPI 3.1 document the playground reads (everything else is ignored). */
interface SchemaObject {
  type?: string;
  enum?: unknown[];
  items?: SchemaObject;
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
}
interface ParameterObject {
  name: string;
  in: PlaygroundField["in"] | "header";
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
}
interface OperationObject {
  summary?: string;
  "x-family"?: "A" | "B";
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject } | undefined> };
  security?: unknown[];
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, OperationObject>>;
}

/**
 * Values that make a first call succeed on the demo market; everything else starts empty. An optional `symbols` (the
 * live stream's filter) starts empty too, so a first stream watches every symbol and shows events within a minute at
 * any hour (the demo's night session prints a flow event about every 20 s over the whole universe, not per name).
 */
const EXAMPLES: Record<string, string> = { symbol: "AAPL", ticker: "AAPL", symbols: "AAPL,MSFT,SPY" };

function kindOf(schema: SchemaObject): Pick<PlaygroundField, "kind" | "options"> {
  if (Array.isArray(schema.enum)) return { kind: "enum", options: schema.enum.map(String) };
  if (schema.type === "integer") return { kind: "integer" };
  if (schema.type === "number") return { kind: "number" };
  if (schema.type === "array") {
    const items = schema.items ?? {};
    if (Array.isArray(items.enum)) return { kind: "enum-list", options: items.enum.map(String) };
    return { kind: items.type === "number" || items.type === "integer" ? "number-list" : "list" };
  }
  return { kind: "text" };
}

function field(
  name: string,
  where: PlaygroundField["in"],
  required: boolean,
  schema: SchemaObject,
  description?: string,
): PlaygroundField {
  return {
    name,
    in: where,
    required,
    description: description ?? schema.description,
    ...kindOf(schema),
    ...(EXAMPLES[name] && (required || name !== "symbols") ? { example: EXAMPLES[name] } : {}),
  };
}

export function playgroundOperations(doc: OpenApiDocument): PlaygroundOperation[] {
  const out: PlaygroundOperation[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const family = op["x-family"];
      if (!family) continue; // only operations the gateway serves carry their family
      // Header parameters (X-Request-Id) are the playground's own business, not form fields.
      const fields: PlaygroundField[] = (op.parameters ?? []).flatMap((p) =>
        p.in === "header" ? [] : [field(p.name, p.in, Boolean(p.required), p.schema ?? {}, p.description)],
      );
      const body = op.requestBody?.content?.["application/json"]?.schema;
      if (body) {
        const required = new Set<string>(body.required ?? []);
        for (const [name, schema] of Object.entries(body.properties ?? {}))
          fields.push(field(name, "body", required.has(name), schema));
      }
      out.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? "",
        family,
        authenticated: (op.security ?? []).length > 0,
        fields,
        hasBody: Boolean(body),
      });
    }
  }
  return out.sort(
    (a, b) => a.family.localeCompare(b.family) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
}

/** The path with its parameters substituted (percent-encoded) and the non-empty query values appended. */
export function requestPath(template: string, params: Record<string, string>, query: Record<string, string>): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const q = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== ""));
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A body field's form value as JSON: numbers parsed, lists split on commas; empty optional values are left out. */
export function bodyValue(f: PlaygroundField, raw: string | string[]): unknown {
  if (Array.isArray(raw)) return raw;
  const text = raw.trim();
  if (text === "") return undefined;
  if (f.kind === "number" || f.kind === "integer") return Number(text);
  if (f.kind === "list" || f.kind === "number-list") {
    const items = text
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    return f.kind === "number-list" ? items.map(Number) : items;
  }
  return text;
}

/**
 * A request's values as the client libraries name and type them (clients/snippets): path values as given, numeric query
 * values as numbers, the body as sent; empty values left out.
 */
export function sampleParams(
  op: Pick<PlaygroundOperation, "fields">,
  req: { params: Record<string, string>; query: Record<string, string>; body?: unknown },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of op.fields) {
    if (f.in === "body") continue;
    const raw = f.in === "path" ? req.params[f.name] : req.query[f.name];
    if (raw === undefined || raw === "") continue;
    const numeric = f.in === "query" && (f.kind === "number" || f.kind === "integer");
    out[f.name] = numeric && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, unknown>))
    if (value !== undefined && value !== "") out[name] = value;
  return out;
}
