/** The operation table both clients are generated from: one row per operationId of the OpenAPI document. */

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked by its shape, which JSON Schema leaves open
export type Json = Record<string, any>;

export interface OperationRow {
  operationId: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  family: "A" | "B";
  /** Path parameter names, in template order. */
  pathParams: string[];
  queryParams: { name: string; required: boolean; schema: Json }[];
  /** Top-level body fields; empty when the operation takes no body. */
  bodyFields: { name: string; required: boolean; schema: Json }[];
  hasBody: boolean;
  successStatus: number;
  authenticated: boolean;
  summary: string;
  /** JSON Schema of the success envelope's `data`. */
  dataSchema: Json;
}

/** The document's own reference (`GET /openapi.json`) is not a client method: the generator reads the document itself. */
const SKIPPED = new Set(["GET /api/v1/openapi.json"]);

function mergeObjectFields(
  schema: Json | undefined,
  resolve: (s: Json) => Json | undefined,
): { name: string; required: boolean; schema: Json }[] {
  if (!schema) return [];
  const variants: Json[] = (schema.anyOf ?? schema.oneOf ?? [schema]).map((v: Json) => resolve(v) ?? {});
  const seen = new Map<string, { name: string; required: boolean; schema: Json }>();
  for (const v of variants) {
    const req = new Set<string>(v.required ?? []);
    for (const [name, s] of Object.entries<Json>(v.properties ?? {})) {
      // a field of one variant only is optional in the flattened parameter list; the server checks the combination
      const required = variants.length === 1 && req.has(name);
      if (!seen.has(name)) seen.set(name, { name, required, schema: s });
    }
  }
  return [...seen.values()];
}

/** Follows a local `$ref` (`#/components/schemas/X`) to the schema it names. */
export function resolveRef(doc: Json, schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let hops = 0; s && typeof s.$ref === "string" && hops < 32; hops++) {
    if (!s.$ref.startsWith("#/")) throw new Error(`only local $refs are supported: ${s.$ref}`);
    s = s.$ref
      .slice(2)
      .split("/")
      .reduce<Json | undefined>((node, part) => node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  }
  return s;
}

/** The `data` schema of a success response: the most specific `data` among the envelope's `allOf` members. */
function dataSchemaOf(doc: Json, response: Json | undefined): Json {
  const schema = resolveRef(doc, resolveRef(doc, response)?.content?.["application/json"]?.schema) ?? {};
  let found: Json | undefined = schema.properties?.data;
  for (const part of schema.allOf ?? []) {
    const data = resolveRef(doc, part)?.properties?.data;
    if (data && (data.$ref || data.properties || data.items || data.anyOf || data.oneOf)) found = data;
    else found ??= data;
  }
  return found ?? {};
}

export function operationTable(doc: Json): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [m, op] of Object.entries<Json>(item)) {
      const method = m.toUpperCase() as OperationRow["method"];
      if (SKIPPED.has(`${method} ${path}`)) continue;
      if (typeof op.operationId !== "string" || !/^[a-z][A-Za-z0-9]*$/.test(op.operationId))
        throw new Error(`${method} ${path}: operationId must be a lowerCamelCase method name, got ${op.operationId}`);
      const params: Json[] = (op.parameters ?? []).map((p: Json) => resolveRef(doc, p));
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
      const queryParams = params
        .filter((p) => p.in === "query")
        .map((p) => ({ name: p.name as string, required: Boolean(p.required), schema: p.schema ?? {} }));
      const bodySchema = resolveRef(doc, resolveRef(doc, op.requestBody)?.content?.["application/json"]?.schema);
      const bodyFields = mergeObjectFields(bodySchema, (x) => resolveRef(doc, x));
      const names = [...pathParams, ...queryParams.map((q) => q.name), ...bodyFields.map((b) => b.name)];
      const dup = names.find((n, i) => names.indexOf(n) !== i);
      if (dup) throw new Error(`${op.operationId}: parameter '${dup}' is both a path/query and a body field`);
      const success = Object.keys(op.responses ?? {}).find((s) => /^2\d\d$/.test(s)) ?? "200";
      rows.push({
        operationId: op.operationId,
        method,
        path,
        family: op["x-family"] === "A" ? "A" : "B",
        pathParams,
        queryParams,
        bodyFields,
        hasBody: bodySchema !== undefined,
        successStatus: Number(success),
        authenticated: Array.isArray(op.security) ? op.security.length > 0 : true,
        summary: String(op.summary ?? ""),
        dataSchema: dataSchemaOf(doc, op.responses?.[success]),
      });
    }
  }
  const ids = rows.map((r) => r.operationId);
  const dupId = ids.find((n, i) => ids.indexOf(n) !== i);
  if (dupId) throw new Error(`operationId ${dupId} is used twice`);
  return rows.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

/** The API's error codes: the document's `x-error-codes` list, else every enum value found under `error.code`. */
export function errorCodes(doc: Json): string[] {
  const listed = Array.isArray(doc["x-error-codes"]) ? doc["x-error-codes"].map((e: Json) => String(e.code)) : [];
  if (listed.length > 0) return [...new Set(listed)].sort();
  const found = new Set<string>();
  const walk = (node: unknown, underCode: boolean): void => {
    if (!node || typeof node !== "object") return;
    const n = node as Json;
    if (underCode && Array.isArray(n.enum)) for (const v of n.enum) found.add(String(v));
    for (const [k, v] of Object.entries(n)) walk(v, k === "code");
  };
  walk(doc.components?.schemas, false);
  return [...found].sort();
}
