/**
 * Table classes shared by every data table. At md and up a table is a table (fixed layout, columns sized by the
 * header classes, cells truncate); below md each row stacks into a card whose cells carry their own labels.
 */
export const table = "w-full table-fixed border-collapse text-left text-sm max-md:block";
export const thead = "border-b border-line bg-subtle text-xs font-medium text-muted max-md:sr-only";
export const th = "px-3 py-2 font-medium";
export const tbody = "max-md:block max-md:space-y-2";
export const tr =
  "border-b border-line last:border-b-0 hover:bg-subtle/60 max-md:grid max-md:grid-cols-[auto_1fr] max-md:gap-x-3 max-md:gap-y-1 max-md:rounded-lg max-md:border max-md:p-3 max-md:last:border-b";
export const td = "px-3 py-2 align-middle max-md:col-span-2 max-md:p-0 max-md:min-w-0";
/** The label a stacked cell shows before its value (hidden where the header row is visible). */
export const cellLabel = "mr-2 text-xs text-muted md:sr-only";
/** The frame around a table: bordered, never scrolling sideways. */
export const frame = "rounded-lg border border-line bg-surface max-md:border-0 max-md:bg-transparent";
