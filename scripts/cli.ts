/**
 * Operator CLI: `npm run -s cli -- <command>`. JSON on stdout; on error a one-line reason on stderr and exit 1
 * (2 for usage errors). A thin shell over the domain functions the portal and admin console use.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { connectForTool } from "../lib/db/connect";
import type { Database } from "../lib/db/client";
import { setLogLevel } from "../lib/log";
import { createAccount, requireAccountByEmail, setAccountPlan, setAccountStatus } from "../lib/domain/accounts";
import { adminActor } from "../lib/domain/audit";
import { changeKeyStatus, createKey } from "../lib/domain/keys";
import { listEndpoints, setLicensing } from "../lib/domain/licensing";
import { DomainError } from "../lib/domain/errors";
import { endpointCatalogue } from "../lib/api/routes";
import { seedReferenceData } from "../lib/domain/seed";
import { IMPORT_KINDS, importFile, isImportKind, formatImportError } from "../lib/market/import";
import { seedDemoMarketWithHistory, snapshotsAfterImport } from "../lib/engine/history";
import { appEnv } from "../lib/env";
import { demoWallClock } from "../lib/market/demo-wall-clock";
import { ACCESS_USAGE, runAccess } from "./cli-access";
import { runUserCommand, USER_USAGE } from "./cli-user";
import { LIST_USAGE, runListCommand } from "./cli-list";
import { ADMIN_USAGE, runAdminCommand, STREAMED } from "./cli-admin";
import { runSyncCommand, SYNC_USAGE } from "./cli-sync";
import { runWebhooksListen, WEBHOOKS_USAGE } from "./cli-webhooks";

class UsageError extends Error {}
const ACTOR = adminActor(`cli:${process.env.USER ?? "operator"}`);

type Flags = Record<string, string | boolean | undefined>;
const USAGE = `usage: cli <command>     (JSON on stdout; \`cli help\` lists every command)
  help${LIST_USAGE}
  account create --email E [--plan sandbox|starter|pro|enterprise] [--admin]
  account set-plan --email E --plan P
  account deactivate|activate --email E
  key create --email E --env test|live [--style sk] [--name N]
  key deactivate|activate|revoke --id ID
  endpoint list
  endpoint set-licensing --path P --env live|test --state enabled|pending_licensing --reason R [--method M]
  import <${IMPORT_KINDS.join("|")}> --file F [--env live|demo]
  demo seed${USER_USAGE}${ADMIN_USAGE}${SYNC_USAGE}${WEBHOOKS_USAGE}
${ACCESS_USAGE}`;

function need(flags: Flags, name: string): string {
  const v = flags[name];
  if (typeof v !== "string" || v.trim() === "") throw new UsageError(`--${name} is required`);
  return v;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}`);
  return value as T;
}

async function run(database: Database, words: string[], flags: Flags): Promise<unknown> {
  const db = database.db;
  const [group, action, arg] = words;
  const cmd = `${group ?? ""} ${action ?? ""}`.trim();
  const listed = await runListCommand(db, cmd, {
    need: (n) => need(flags, n),
    flag: (n) => flags[n] as string | undefined,
    usage: (m) => new UsageError(m),
  });
  if (listed !== undefined) return listed;
  const admin = await runAdminCommand(db, cmd, {
    actor: ACTOR,
    need: (n) => need(flags, n),
    flag: (n) => flags[n] as string | undefined,
    usage: (m) => new UsageError(m),
  });
  if (admin !== undefined) return admin;
  const synced = await runSyncCommand(db, words, {
    need: (n) => need(flags, n),
    flag: (n) => flags[n] as string | undefined,
    usage: (m) => new UsageError(m),
  });
  if (synced !== undefined) return synced;
  switch (cmd) {
    case "account create":
      return createAccount(
        db,
        { email: need(flags, "email"), plan: (flags.plan as string) ?? "sandbox", admin: flags.admin === true },
        ACTOR,
      );
    case "account set-plan": {
      const account = await requireAccountByEmail(db, need(flags, "email"));
      return { ...account, ...(await setAccountPlan(db, account.accountId, need(flags, "plan"), ACTOR)) };
    }
    case "account deactivate":
    case "account activate": {
      const account = await requireAccountByEmail(db, need(flags, "email"));
      return {
        ...account,
        ...(await setAccountStatus(db, account.accountId, action === "activate" ? "active" : "inactive", ACTOR)),
      };
    }
    case "key create": {
      const style = flags.style === undefined ? "standard" : oneOf(String(flags.style), ["sk"] as const, "style");
      const env = oneOf(need(flags, "env"), ["test", "live"] as const, "env");
      if (style === "sk" && env === "test")
        throw new DomainError("invalid", "--style sk issues live keys only (svc_sk_live_): use --env live");
      const account = await requireAccountByEmail(db, need(flags, "email"));
      return createKey(db, { accountId: account.accountId, env, style, name: flags.name as string | undefined }, ACTOR);
    }
    case "key deactivate":
    case "key activate":
    case "key revoke":
      return changeKeyStatus(db, need(flags, "id"), action as "deactivate" | "activate" | "revoke", ACTOR);
    case "endpoint list":
      return listEndpoints(db);
    case "endpoint set-licensing":
      return setLicensing(
        db,
        {
          path: need(flags, "path"),
          method: flags.method as string | undefined,
          env: oneOf(need(flags, "env"), ["test", "live"] as const, "env"),
          state: oneOf(need(flags, "state"), ["enabled", "pending_licensing"] as const, "state"),
          reason: need(flags, "reason"),
        },
        ACTOR,
      );
    case "demo seed":
      await seedDemoMarketWithHistory(db, { seed: appEnv().DEMO_SEED, now: demoWallClock()() });
      return { ok: true };
    default:
      if (group === "access") {
        const done = await runAccess(db, action, (name) => need(flags, name), ACTOR);
        if (done !== undefined) return done;
      }
      if (group === "user")
        return runUserCommand(db, action, {
          actor: ACTOR,
          need: (n) => need(flags, n),
          usage: (m) => new UsageError(m),
        });
      if (group === "import") {
        const kind = action ?? "";
        if (!isImportKind(kind)) throw new UsageError(`import kind must be one of ${IMPORT_KINDS.join(", ")}`);
        if (arg) throw new UsageError(`unexpected argument ${arg}`);
        const env = flags.env === undefined ? "live" : oneOf(String(flags.env), ["live", "demo"] as const, "env");
        const report = await importFile(db, kind, need(flags, "file"), { env });
        if (!report.ok) {
          process.stdout.write(JSON.stringify(report, null, 2) + "\n");
          const first = report.errors[0];
          throw new DomainError(
            "invalid",
            `import rejected: ${report.errors.length} bad row(s), nothing written${first ? `; first: ${formatImportError(first)}` : ""}`,
          );
        }
        // Days the import changed get their daily snapshots recomputed here, once (docs/analytics.md "History").
        return { ...report, snapshots: await snapshotsAfterImport(db, env, report.changedFrom ?? null) };
      }
      throw new UsageError(`unknown command '${words.join(" ")}'`);
  }
}

const PARSE_CONFIG = {
  args: process.argv.slice(2),
  allowPositionals: true,
  strict: true,
  options: {
    email: { type: "string" },
    plan: { type: "string" },
    admin: { type: "boolean" },
    env: { type: "string" },
    style: { type: "string" },
    name: { type: "string" },
    id: { type: "string" },
    path: { type: "string" },
    method: { type: "string" },
    state: { type: "string" },
    reason: { type: "string" },
    file: { type: "string" },
    days: { type: "string" },
    q: { type: "string" },
    prefix: { type: "string" },
    actor: { type: "string" },
    action: { type: "string" },
    target: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    cursor: { type: "string" },
    limit: { type: "string" },
    format: { type: "string" },
    "forward-to": { type: "string" },
    events: { type: "string" },
    symbols: { type: "string" },
    key: { type: "string" },
    "api-url": { type: "string" },
    help: { type: "boolean" },
    provider: { type: "string" },
    kind: { type: "string" },
    date: { type: "string" },
    "flat-file": { type: "boolean" },
  },
} satisfies ParseArgsConfig;

async function main(): Promise<number> {
  setLogLevel("warn");
  let parsed: ReturnType<typeof parseArgs<typeof PARSE_CONFIG>>;
  try {
    parsed = parseArgs(PARSE_CONFIG);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.positionals[0] === "help" && parsed.positionals.length === 1) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    process.stderr.write(USAGE + "\n");
    return parsed.values.help ? 0 : 2;
  }
  const [group, action] = parsed.positionals;
  // Talks to the running app over HTTP, never to the database: it runs for as long as the user listens.
  if (group === "webhooks" && action === "listen") return listenCommand(parsed.values);
  let database: Database;
  try {
    database = await connectForTool();
  } catch (err) {
    // One line, as for any other error: the reason, never a stack trace.
    process.stderr.write(`error: cannot open the database: ${(err as Error).message.split("\n")[0]}\n`);
    return 1;
  }
  try {
    await seedReferenceData(database.db, endpointCatalogue());
    const result = await run(database, parsed.positionals, parsed.values);
    if (result !== STREAMED) process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      return 2;
    }
    if (err instanceof DomainError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    process.stderr.write(`error: ${(err as Error).message.split("\n")[0]}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

async function listenCommand(flags: Flags): Promise<number> {
  try {
    await runWebhooksListen(
      (n) => flags[n] as string | undefined,
      (m) => new UsageError(m),
    );
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError;
    process.stderr.write(`${(err as Error).message}\n${usage ? `${USAGE}\n` : ""}`);
    return usage ? 2 : 1;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}\n`);
    process.exit(1);
  },
);
