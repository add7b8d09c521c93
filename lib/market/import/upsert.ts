/**
 * Batched idempotent upsert: INSERT … ON CONFLICT (primary key) DO UPDATE, touching a row only when a value
 * differs, and counting inserted / updated / unchanged rows (RETURNING xmax = 0 marks fresh inserts;
 * rows whose values are identical are filtered by the WHERE and not returned).
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const BATCH_SIZE = 1000;

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export async function upsertRows(
  tx: Tx,
  table: PgTable,
  keyProps: readonly string[],
  values: readonly Record<string, unknown>[],
  batchSize = BATCH_SIZE,
): Promise<UpsertCounts> {
  const columns = getTableColumns(table);
  const target = keyProps.map((p) => columns[p]);
  const updateProps = Object.keys(columns).filter((p) => !keyProps.includes(p));
  const excluded = (p: string): SQL => sql.raw(`excluded."${columns[p].name}"`);
  const set = Object.fromEntries(updateProps.map((p) => [p, excluded(p)]));
  const changed = sql.join(
    updateProps.map((p) => sql`${columns[p]} is distinct from ${excluded(p)}`),
    sql` or `,
  );
  const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
  for (let i = 0; i < values.length; i += batchSize) {
    const batch = values.slice(i, i + batchSize);
    const written = await tx
      .insert(table)
      // Generic over the kind tables: drizzle types values per table, these rows come from KIND_TABLES' mappings.
      .values(batch as never)
      .onConflictDoUpdate({ target, set, setWhere: sql`(${changed})` })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    const fresh = written.filter((r) => r.inserted).length;
    counts.inserted += fresh;
    counts.updated += written.length - fresh;
    counts.unchanged += batch.length - written.length;
  }
  return counts;
}
