/** The audit export as a web stream of CSV (csv-stringify), read from the database in batches while it is sent. */
import "server-only";
import { stringify } from "csv-stringify";
import type { Db } from "../db/client";
import { AUDIT_CSV_COLUMNS, auditCsvRecord, auditRows, type AuditFilter } from "../domain/admin-audit";
import { errorFields, log } from "../log";

/**
 * The first row is read before the stream exists, so a filter the store refuses fails the request (an error status)
 * instead of a 200 whose connection then drops.
 */
export async function auditCsvStream(db: Db, filter: AuditFilter): Promise<ReadableStream<Uint8Array>> {
  const rows = auditRows(db, filter)[Symbol.asyncIterator]();
  let first: IteratorResult<Awaited<ReturnType<typeof rows.next>>["value"]> | null = await rows.next();
  const encoder = new TextEncoder();
  let header = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const batch: string[][] = [];
        for (let i = 0; i < 200; i++) {
          const next = first ?? (await rows.next());
          first = null;
          if (next.done) break;
          batch.push(auditCsvRecord(next.value));
        }
        const text = await toCsv(batch, header);
        header = false;
        if (text) controller.enqueue(encoder.encode(text));
        if (batch.length < 200) controller.close();
      } catch (err) {
        log.error("audit export failed", errorFields(err));
        controller.error(err);
      }
    },
    async cancel() {
      await rows.return?.(undefined);
    },
  });
}

function toCsv(records: string[][], header: boolean): Promise<string> {
  return new Promise((resolve, reject) =>
    stringify(records, { header, columns: [...AUDIT_CSV_COLUMNS] }, (err, out) => (err ? reject(err) : resolve(out))),
  );
}
