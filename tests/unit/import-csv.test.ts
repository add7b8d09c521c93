import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCsv } from "../../lib/market/import/csv";

const rows = (text: string) =>
  parseCsv(text).map((r) => ({ line: r.line, fields: r.fields, ...(r.error ? { error: r.error } : {}) }));

test("plain records with LF, CRLF and lone CR line endings, with and without a final newline", () => {
  const expected = [
    { line: 1, fields: ["a", "b"] },
    { line: 2, fields: ["1", "2"] },
  ];
  assert.deepEqual(rows("a,b\n1,2\n"), expected);
  assert.deepEqual(rows("a,b\r\n1,2\r\n"), expected);
  assert.deepEqual(rows("a,b\r1,2"), expected);
  assert.deepEqual(rows("a,b\n1,2"), expected);
});

test("quoted fields keep commas, escaped quotes and line breaks; line is where the record starts", () => {
  const text = 'id,note\r\n1,"a, b"\r\n2,"say ""hi"""\r\n3,"two\r\nlines"\r\n4,x\r\n';
  assert.deepEqual(rows(text), [
    { line: 1, fields: ["id", "note"] },
    { line: 2, fields: ["1", "a, b"] },
    { line: 3, fields: ["2", 'say "hi"'] },
    { line: 4, fields: ["3", "two\r\nlines"] },
    { line: 6, fields: ["4", "x"] },
  ]);
});

test("a leading UTF-8 BOM is dropped", () => {
  assert.deepEqual(rows("\uFEFFsymbol,name\nAAPL,Apple\n")[0].fields, ["symbol", "name"]);
});

test("empty fields, an empty quoted field and a trailing comma are kept", () => {
  assert.deepEqual(rows('a,,"",c,\n')[0].fields, ["a", "", "", "c", ""]);
});

test("blank lines are skipped but do not disturb line numbers", () => {
  assert.deepEqual(rows("h1,h2\n\n1,2\n   \n\n3,4\n\n"), [
    { line: 1, fields: ["h1", "h2"] },
    { line: 3, fields: ["1", "2"] },
    { line: 6, fields: ["3", "4"] },
  ]);
});

test("empty input and a lone BOM yield no records", () => {
  assert.deepEqual(rows(""), []);
  assert.deepEqual(rows("\uFEFF"), []);
  assert.deepEqual(rows("\n\r\n"), []);
});

test("malformed records are reported with their line and do not stop the reader", () => {
  const out = rows('h1,h2\nab"c,1\n"x"y,2\nok,3\n"open,4\nrest,5\n');
  assert.equal(out[1].line, 2);
  assert.match(out[1].error!, /unexpected quote in unquoted field 1/);
  assert.equal(out[2].line, 3);
  assert.match(out[2].error!, /unexpected text after the closing quote of field 1/);
  assert.deepEqual(out[3], { line: 4, fields: ["ok", "3"] });
  assert.equal(out[4].line, 5);
  assert.match(out[4].error!, /unterminated quoted field \(opened on line 5\)/);
  assert.equal(out.length, 5, "an unterminated quote swallows the rest of the file into one record");
});

test("field values are not trimmed by the reader", () => {
  assert.deepEqual(rows(" a , b \n")[0].fields, [" a ", " b "]);
});

test("large input is read in linear time", () => {
  const line = '"AAPL","a ""quoted"", value",1.5,2\n';
  const text = line.repeat(100_000);
  // CPU time of this process, not wall time: other processes on a busy machine do not count against it.
  const t0 = process.cpuUsage();
  const out = parseCsv(text);
  assert.equal(out.length, 100_000);
  assert.equal(out[99_999].line, 100_000);
  const used = process.cpuUsage(t0);
  assert.ok((used.user + used.system) / 1000 < 3000);
});

test("csv-parse underneath: CRLF files with blank lines, a multi-line quoted field and two bad lines keep every line number", () => {
  const text = 'a,b\r\n\r\n1,"x\r\ny"\r\nb"ad,2\r\n   \r\n"q"z,3\r\n4,5\r\n';
  assert.deepEqual(
    rows(text).map((r) => [r.line, r.error ? "error" : r.fields.join("|")]),
    [
      [1, "a|b"],
      [3, "1|x\r\ny"],
      [5, "error"],
      [7, "error"],
      [8, "4|5"],
    ],
  );
});
