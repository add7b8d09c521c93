/**
 * Sizes that keep the code readable (issue 27): no file under lib/api or lib/server over 300 lines, and no function in
 * product code (app, components, lib) over 80 lines, a function's lines counted from its first to its last line,
 * nested functions included. What exceeded these when the rule came in is listed in tests/unit/code-size-ratchet.json
 * with its size then: a listed one may only shrink (the test fails when it grows, and asks to lower its entry or drop
 * it once it fits), and nothing new may exceed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const FILE_LIMIT = 300;
const FUNCTION_LIMIT = 80;
const FILE_ROOTS = ["lib/api", "lib/server"];
const PRODUCT_ROOTS = ["app", "components", "lib"];

interface Ratchet {
  files: Record<string, number>;
  functions: Record<string, number>;
}
const ratchet = JSON.parse(readFileSync("tests/unit/code-size-ratchet.json", "utf8")) as Ratchet;

function sources(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

/** Every function-like node's name (file:name, or file:line for an anonymous one) and its length in lines. */
function functionSizes(path: string): Map<string, number> {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const sizes = new Map<string, number>();
  const line = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node, owner: string) => {
    let name = owner;
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const own = nameOf(node);
      name = own ? (owner ? `${owner}.${own}` : own) : `${owner || "<anonymous>"}@${line(node.getStart())}`;
      const size = line(node.getEnd()) - line(node.getStart()) + 1;
      if (size > FUNCTION_LIMIT) sizes.set(`${path}:${name}`, size);
    } else if (ts.isClassDeclaration(node) && node.name) name = node.name.text;
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(file, "");
  return sizes;
}

function nameOf(node: ts.SignatureDeclaration): string | null {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isExportAssignment(parent)) return "default";
  return null;
}

function check(kind: string, limit: number, measured: Map<string, number>, listed: Record<string, number>) {
  const problems: string[] = [];
  for (const [name, size] of measured) {
    const allowed = listed[name];
    if (allowed === undefined) problems.push(`${name}: ${size} lines (limit ${limit}); split it`);
    else if (size > allowed) problems.push(`${name}: ${size} lines, grew past its ratchet entry ${allowed}`);
  }
  for (const [name, allowed] of Object.entries(listed)) {
    const size = measured.get(name);
    if (size === undefined) problems.push(`${name}: now within ${limit} lines (or gone); drop its ratchet entry`);
    else if (size < allowed) problems.push(`${name}: shrank to ${size}; lower its ratchet entry from ${allowed}`);
  }
  assert.deepEqual(problems, [], `${kind}:\n${problems.join("\n")}`);
}

test(`no file under ${FILE_ROOTS.join(" or ")} over ${FILE_LIMIT} lines (ratchet aside)`, () => {
  const measured = new Map<string, number>();
  for (const path of FILE_ROOTS.flatMap(sources)) {
    const size = lineCount(readFileSync(path, "utf8"));
    if (size > FILE_LIMIT) measured.set(path, size);
  }
  check("files", FILE_LIMIT, measured, ratchet.files);
});

test(`no function in ${PRODUCT_ROOTS.join(", ")} over ${FUNCTION_LIMIT} lines (ratchet aside)`, () => {
  const measured = new Map<string, number>();
  for (const path of PRODUCT_ROOTS.flatMap(sources)) for (const [k, v] of functionSizes(path)) measured.set(k, v);
  check("functions", FUNCTION_LIMIT, measured, ratchet.functions);
});

test("the counter counts: a long function and a long file are caught", () => {
  const body = Array.from({ length: FUNCTION_LIMIT + 1 }, (_, i) => `  const x${i} = ${i};`).join("\n");
  const file = ts.createSourceFile("x.ts", `export function long() {\n${body}\n}\n`, ts.ScriptTarget.Latest, true);
  let found = 0;
  ts.forEachChild(file, (n) => {
    if (ts.isFunctionDeclaration(n)) found = file.getLineAndCharacterOfPosition(n.getEnd()).line + 1;
  });
  assert.ok(found > FUNCTION_LIMIT);
  assert.throws(() => check("functions", FUNCTION_LIMIT, new Map([["x.ts:long", found]]), {}));
  assert.throws(() => check("files", FILE_LIMIT, new Map([["x.ts", 301]]), { "x.ts": 300 }));
});
