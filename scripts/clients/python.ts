/** Python source generated from the operation table: TypedDicts of every operation's data, the table, and the methods. */
import { resolveRef, type Json, type OperationRow } from "./operations";

const PY_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);
/** Per-call options every method takes; no API parameter may use these names. */
const RESERVED = new Set(["self", "timeout", "idempotency_key", "headers"]);

export const snakeCase = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join("");

/** A Python argument name for an API field: keywords get a trailing underscore (`from` → `from_`). */
export const pyArg = (name: string) => (PY_KEYWORDS.has(name) ? `${name}_` : name);

const pyStr = (s: string) => JSON.stringify(s);

class TypedDicts {
  readonly defs: string[] = [];
  private readonly byName = new Map<string, string>();

  constructor(private readonly doc: Json) {}

  /** The Python type of a JSON Schema; object schemas with properties become named TypedDicts. */
  type(schema: Json | undefined, name: string): string {
    if (!schema || typeof schema !== "object") return "Any";
    // a component keeps its own name, so two operations answering the same schema share one TypedDict
    if (typeof schema.$ref === "string")
      return this.type(resolveRef(this.doc, schema), pascal(schema.$ref.split("/").pop() ?? name));
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return this.type(schema.allOf[0], name);
    if ("const" in schema) return `Literal[${pyLiteral(schema.const)}]`;
    if (Array.isArray(schema.enum)) return `Literal[${schema.enum.map(pyLiteral).join(", ")}]`;
    const union: Json[] | undefined = schema.anyOf ?? schema.oneOf;
    if (union) {
      const several = union.filter((s) => s?.type !== "null").length > 1;
      return unionOf(union.map((s, i) => this.type(s, several ? `${name}${i + 1}` : name)));
    }
    if (Array.isArray(schema.type))
      return unionOf(schema.type.map((t: string) => this.type({ ...schema, type: t }, name)));
    switch (schema.type) {
      case "string":
        return "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        return `List[${this.type(schema.items, `${name}Item`)}]`;
      case "object":
        if (!schema.properties || Object.keys(schema.properties).length === 0)
          return schema.additionalProperties && typeof schema.additionalProperties === "object"
            ? `Dict[str, ${this.type(schema.additionalProperties, `${name}Value`)}]`
            : "Dict[str, Any]";
        return this.typedDict(schema, name);
      default:
        return "Any";
    }
  }

  private typedDict(schema: Json, name: string): string {
    const required = new Set<string>(schema.required ?? []);
    const fields = Object.entries<Json>(schema.properties).map(([k, s]) => ({
      k,
      t: this.type(s, `${name}${pascal(k)}`),
      req: required.has(k),
    }));
    const body = (fs: typeof fields) => fs.map((f) => `${pyStr(f.k)}: ${f.t}`).join(", ");
    const req = fields.filter((f) => f.req);
    const opt = fields.filter((f) => !f.req);
    let def: string;
    if (opt.length === 0) def = `${name} = TypedDict(${pyStr(name)}, {${body(req)}})`;
    else if (req.length === 0) def = `${name} = TypedDict(${pyStr(name)}, {${body(opt)}}, total=False)`;
    else
      def = [
        `_${name}Required = TypedDict(${pyStr(`_${name}Required`)}, {${body(req)}})`,
        `_${name}Optional = TypedDict(${pyStr(`_${name}Optional`)}, {${body(opt)}}, total=False)`,
        "",
        "",
        `class ${name}(_${name}Required, _${name}Optional):`,
        `    ${pyStr(schema.description ?? name)}`,
      ].join("\n");
    const prev = this.byName.get(name);
    if (prev !== undefined && prev !== def) throw new Error(`two different TypedDicts named ${name}`);
    if (prev === undefined) {
      this.byName.set(name, def);
      this.defs.push(def);
    }
    return name;
  }
}

function pyLiteral(v: unknown): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  return JSON.stringify(v);
}

function unionOf(types: string[]): string {
  const uniq = [...new Set(types)];
  const nonNull = uniq.filter((t) => t !== "None");
  const inner = nonNull.length === 1 ? nonNull[0] : `Union[${nonNull.join(", ")}]`;
  if (nonNull.length === 0) return "None";
  return uniq.includes("None") ? `Optional[${inner}]` : inner;
}

/** A parameter's Python type: like its schema, and a decimal-digits query string also takes an int. */
function paramType(dicts: TypedDicts, schema: Json, name: string): string {
  if (schema.type === "string" && schema.pattern === "^\\d{1,15}$") return "Union[int, str]";
  return dicts.type(schema, name);
}

export function pythonModule(doc: Json, rows: OperationRow[], version: string, codes: string[]): string {
  const dicts = new TypedDicts(doc);
  const dataTypes = new Map(rows.map((r) => [r.operationId, dicts.type(r.dataSchema, `${pascal(r.operationId)}Data`)]));
  const table = rows.map((r) => {
    const fields = (xs: { name: string }[]) => `(${xs.map((x) => `${pyStr(x.name)}, `).join("")})`;
    return [
      `    ${pyStr(r.operationId)}: Operation(`,
      `        method=${pyStr(r.method)},`,
      `        path=${pyStr(r.path)},`,
      `        family=${pyStr(r.family)},`,
      `        path_params=${fields(r.pathParams.map((name) => ({ name })))},`,
      `        query_params=${fields(r.queryParams)},`,
      `        body_fields=${fields(r.bodyFields)},`,
      `        has_body=${r.hasBody ? "True" : "False"},`,
      `        success_status=${r.successStatus},`,
      `        authenticated=${r.authenticated ? "True" : "False"},`,
      "    ),",
    ].join("\n");
  });
  const methods = rows.map((r) => {
    const params = [
      ...r.pathParams.map((name) => ({ name, required: true, schema: { type: "string" } as Json })),
      ...r.queryParams,
      ...r.bodyFields,
    ];
    for (const p of params)
      if (RESERVED.has(pyArg(p.name))) throw new Error(`${r.operationId}: parameter name '${p.name}' is reserved`);
    const sig = [
      "self",
      "*",
      ...params.map((p) => {
        const t = paramType(dicts, p.schema, `${pascal(r.operationId)}${pascal(p.name)}Param`);
        return p.required ? `${pyArg(p.name)}: ${t}` : `${pyArg(p.name)}: Optional[${t}] = None`;
      }),
      ...(r.method === "POST" || r.method === "PATCH" ? ["idempotency_key: Union[str, bool, None] = None"] : []),
      "timeout: Optional[float] = None",
      "headers: Optional[Mapping[str, str]] = None",
    ];
    const args = params.map((p) => `${pyStr(p.name)}: ${pyArg(p.name)}`).join(", ");
    return [
      `    def ${snakeCase(r.operationId)}(`,
      ...sig.map((s) => `        ${s},`),
      `    ) -> "Result[${dataTypes.get(r.operationId)}]":`,
      `        """${r.summary.replace(/"""/g, "'''")} (${r.method} ${r.path})."""`,
      `        return self._call(`,
      `            ${pyStr(r.operationId)},`,
      `            {${args}},`,
      ...(r.method === "POST" || r.method === "PATCH" ? ["            idempotency_key=idempotency_key,"] : []),
      "            timeout=timeout,",
      "            headers=headers,",
      "        )",
    ].join("\n");
  });
  return `${[
    "# Generated by `npm run clients:generate` from the API's OpenAPI document. Do not edit.",
    "# flake8: noqa",
    "from __future__ import annotations",
    "",
    "from typing import TYPE_CHECKING, Any, Dict, List, Literal, Mapping, NamedTuple, Optional, Tuple, TypedDict, Union",
    "",
    "if TYPE_CHECKING:",
    "    from ._result import Result",
    "",
    `API_VERSION = ${pyStr(version)}`,
    "",
    "# Every error code the API answers with.",
    `ErrorCode = Literal[${codes.map(pyStr).join(", ")}]`,
    `ERROR_CODES: Tuple[str, ...] = (${codes.map((c) => `${pyStr(c)}, `).join("")})`,
    "",
    "",
    ...dicts.defs.flatMap((d) => [d, "", ""]),
    "class Operation(NamedTuple):",
    '    """One API operation: how its named parameters map onto the HTTP request."""',
    "",
    "    method: str",
    "    path: str",
    "    family: str",
    "    path_params: Tuple[str, ...]",
    "    query_params: Tuple[str, ...]",
    "    body_fields: Tuple[str, ...]",
    "    has_body: bool",
    "    success_status: int",
    "    authenticated: bool",
    "",
    "",
    "OPERATIONS: Dict[str, Operation] = {",
    ...table,
    "}",
    "",
    "",
    "class GeneratedMethods:",
    '    """One method per operation id, snake_case, taking the API\'s parameter names as keyword arguments."""',
    "",
    "    def _call(",
    "        self,",
    "        operation_id: str,",
    "        params: Dict[str, Any],",
    "        *,",
    "        idempotency_key: Optional[str] = None,",
    "        timeout: Optional[float] = None,",
    "        headers: Optional[Mapping[str, str]] = None,",
    "    ) -> Any:",
    "        raise NotImplementedError",
    "",
    methods.join("\n\n"),
  ].join("\n")}\n`;
}
