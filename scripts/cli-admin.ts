/**
 * Operator CLI: the admin console's actions (`account search|show`, `key deactivate|activate --prefix`, `admin
 * grant|revoke`, `licensing list|history`, `audit list|export`, `overview`), over the same domain functions.
 */
import { stringify } from "csv-stringify";
import type { Db } from "../lib/db/client";
import type { Actor } from "../lib/domain/audit";
import {
  accountDetail,
  requireUserByEmail,
  searchAccounts,
  setAdminFlag,
  setKeyActive,
} from "../lib/domain/admin-accounts";
import { AUDIT_CSV_COLUMNS, auditCsvRecord, auditRows, queryAudit, type AuditFilter } from "../lib/domain/admin-audit";
import { licensingHistory, listLicensing } from "../lib/domain/admin-licensing";
import { adminOverview } from "../lib/domain/admin-overview";

export const ADMIN_USAGE = `
  account search --q Q                  (e-mail, account id or key prefix)
  account show --id ACCOUNT_ID          (members, plan, keys, 30-day usage)
  key deactivate|activate --prefix P    (or --id ID)
  admin grant|revoke --email E
  licensing list
  licensing history --id ENDPOINT_ID
  audit list [--actor A --action X --target T --from T --to T] [--cursor C] [--limit N]
  audit export [--actor A --action X --target T --from T --to T] [--format csv|json]
  overview`;

export interface AdminTools {
  actor: Actor;
  need(name: string): string;
  flag(name: string): string | undefined;
  usage(message: string): Error;
}

/** A result the caller prints itself; `streamed` means the command already wrote its output. */
export const STREAMED = Symbol("streamed");

const filterOf = (t: AdminTools): AuditFilter => ({
  actor: t.flag("actor"),
  action: t.flag("action"),
  target: t.flag("target"),
  from: t.flag("from"),
  to: t.flag("to"),
});

/** Answers the command, or undefined when it is not one of these. */
export async function runAdminCommand(db: Db, cmd: string, t: AdminTools): Promise<unknown> {
  switch (cmd) {
    case "account search":
      return searchAccounts(db, t.need("q"));
    case "account show":
      return accountDetail(db, t.need("id"));
    case "key deactivate":
    case "key activate": {
      const prefix = t.flag("prefix");
      const id = t.flag("id");
      if (!prefix && !id) throw t.usage("--id or --prefix is required");
      return setKeyActive(db, { id, prefix }, cmd === "key activate", t.actor);
    }
    case "admin grant":
    case "admin revoke":
      return setAdminFlag(db, await requireUserByEmail(db, t.need("email")), cmd === "admin grant", t.actor);
    case "licensing list":
      return listLicensing(db);
    case "licensing history":
      return licensingHistory(db, t.need("id"));
    case "audit list": {
      const raw = t.flag("limit");
      if (raw !== undefined && !/^\d{1,3}$/.test(raw)) throw t.usage("--limit must be a whole number from 1 to 200");
      return queryAudit(db, { ...filterOf(t), cursor: t.flag("cursor"), limit: raw ? Number(raw) : undefined });
    }
    case "audit export": {
      const format = t.flag("format") ?? "csv";
      if (format !== "csv" && format !== "json") throw t.usage("--format must be csv or json");
      const rows = auditRows(db, filterOf(t));
      if (format === "json") {
        const all = [];
        for await (const r of rows) all.push(r);
        return all;
      }
      await exportCsv(rows);
      return STREAMED;
    }
    case "overview":
      return adminOverview(db);
    default:
      return undefined;
  }
}

async function exportCsv(rows: AsyncIterable<Parameters<typeof auditCsvRecord>[0]>): Promise<void> {
  const csv = stringify({ header: true, columns: [...AUDIT_CSV_COLUMNS] });
  const done = new Promise<void>((resolve, reject) => {
    csv.on("error", reject);
    csv.on("end", resolve);
  });
  csv.on("data", (chunk: Buffer) => process.stdout.write(chunk));
  for await (const r of rows) if (!csv.write(auditCsvRecord(r))) await new Promise((ok) => csv.once("drain", ok));
  csv.end();
  await done;
}
