/** Operator CLI look-ups for operators who lost an id: `account list`, `key list --email E`, `usage --email E [--days N]`. */
import type { Db } from "../lib/db/client";
import { listAccounts, requireAccountByEmail } from "../lib/domain/accounts";
import { listKeys } from "../lib/domain/keys";
import { usageByDay } from "../lib/domain/usage";

export const LIST_USAGE = `
  account list
  key list --email E
  usage --email E [--days N]            (calls per UTC day and endpoint; N from 1 to 400, default 30)`;

export interface ListTools {
  need(name: string): string;
  flag(name: string): string | undefined;
  usage(message: string): Error;
}

/** Answers the command, or undefined when it is not one of these. */
export async function runListCommand(db: Db, cmd: string, tools: ListTools): Promise<unknown> {
  switch (cmd) {
    case "account list":
      return listAccounts(db);
    case "key list": {
      const account = await requireAccountByEmail(db, tools.need("email"));
      return listKeys(db, account.accountId);
    }
    case "usage": {
      const account = await requireAccountByEmail(db, tools.need("email"));
      const raw = tools.flag("days") ?? "30";
      if (!/^\d{1,3}$/.test(raw)) throw tools.usage("--days must be a whole number from 1 to 400");
      const days = Number(raw);
      if (days < 1 || days > 400) throw tools.usage("--days must be a whole number from 1 to 400");
      const rows = await usageByDay(db, account.accountId, days);
      return {
        accountId: account.accountId,
        email: account.email,
        days,
        totalCalls: rows.reduce((n, r) => n + r.calls, 0),
        rows,
      };
    }
    default:
      return undefined;
  }
}
