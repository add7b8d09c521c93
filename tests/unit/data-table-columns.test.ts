import { test } from "node:test";
import assert from "node:assert/strict";
import {
  actionsColumn,
  cellClass,
  type Column,
  headerClass,
  STACKED,
  stackedLabel,
  type TableStyle,
  visibleColumns,
} from "../../components/ui/data-table-columns";

type Row = { name: string };
const col = (over: Partial<Column<Row>> = {}): Column<Row> => ({
  id: "c",
  header: "Calls",
  cell: (r) => r.name,
  ...over,
});
const classes = (s: string) => new Set(s.split(" "));

test("a column with when: false is left out; the others keep their order", () => {
  const columns = [col({ id: "a" }), col({ id: "b", when: false }), col({ id: "c", when: true }), col({ id: "d" })];
  assert.deepEqual(
    visibleColumns(columns).map((c) => c.id),
    ["a", "c", "d"],
  );
  assert.deepEqual(visibleColumns([]), []);
});

test("a stacked cell is labelled by its header unless it names the row or says otherwise", () => {
  assert.equal(stackedLabel(col()), "Calls");
  assert.equal(stackedLabel(col({ label: "Calls (today)" })), "Calls (today)", "a longer label for the card");
  assert.equal(stackedLabel(col({ label: false })), null, "a time or a button that needs no label");
  assert.equal(stackedLabel(col({ rowHeader: true })), null, "the row header is the card's title");
  assert.equal(stackedLabel(col({ rowHeader: true, label: "Key" })), "Key");
  assert.equal(stackedLabel(col({ srOnlyHeader: true })), "Calls", "a hidden header still labels its cells");
});

test("right-aligned numbers: the header always, the cell only while the table is a table", () => {
  const c = col({ align: "right", width: "w-28" });
  assert.ok(classes(headerClass(c)).has("text-right"));
  assert.ok(classes(headerClass(c)).has("w-28"));
  assert.ok(classes(cellClass(c)).has("md:text-right"));
  assert.ok(!classes(cellClass(c)).has("text-right"), "stacked cards keep numbers beside their labels");
  assert.ok(!classes(headerClass(col())).has("text-right"));
});

test("hideBelow hides the header and the cells below the breakpoint", () => {
  for (const bp of ["sm", "md", "lg"] as const) {
    const c = col({ hideBelow: bp });
    assert.ok(classes(headerClass(c)).has(`max-${bp}:hidden`));
    assert.ok(classes(cellClass(c)).has(`max-${bp}:hidden`));
  }
  assert.ok(![...classes(cellClass(col()))].some((c) => c.endsWith(":hidden")));
});

test("a row header may shrink and is bold; wrap breaks long values anywhere; a column's own classes come last", () => {
  const header = classes(cellClass(col({ rowHeader: true })));
  assert.ok(header.has("min-w-0") && header.has("font-medium"));
  const wrapped = classes(cellClass(col(), true));
  assert.ok(wrapped.has("min-w-0") && wrapped.has("[overflow-wrap:anywhere]"));
  assert.ok(!classes(cellClass(col())).has("[overflow-wrap:anywhere]"));
  assert.ok(cellClass(col({ className: "tabular-nums" })).endsWith("tabular-nums"));
});

test("an actions column: a header for screen readers, no label on the card, right-aligned on wide screens", () => {
  const c = actionsColumn<Row>(() => null, { width: "w-16", when: false });
  assert.equal(c.header, "Actions");
  assert.equal(c.srOnlyHeader, true);
  assert.equal(stackedLabel(c), null);
  assert.ok(classes(cellClass(c)).has("md:text-right"));
  assert.deepEqual(visibleColumns([c]), [], "left out for a role that manages nothing");
  assert.equal(actionsColumn<Row>(() => null, { header: "Details", width: "w-20" }).header, "Details");
});

test("a plain style never stacks: numbers always right-aligned, a row header keeps the column's own weight", () => {
  const plain: TableStyle = { ...STACKED, td: "px-2 py-1", th: "px-2 py-1", stacks: false };
  const number = classes(cellClass(col({ align: "right" }), false, plain));
  assert.ok(number.has("text-right") && !number.has("md:text-right"));
  const header = classes(cellClass(col({ rowHeader: true, className: "font-normal" }), false, plain));
  assert.ok(!header.has("font-medium"), "font-normal and font-medium would fight in CSS order");
  assert.ok(classes(headerClass(col({ headerClassName: "text-xs" }), plain)).has("text-xs"));
});
