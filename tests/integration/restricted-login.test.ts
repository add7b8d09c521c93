/**
 * Issue 30 item 7: `npm start` with only a DATABASE_URL that can defeat the audit trail (here a superuser) serves as a
 * login in ora_app that the launcher creates (scripts/restricted-login.ts). Real PostgreSQL; the last case runs the
 * real launcher (scripts/start.ts → next start) and reads pg_stat_activity while it serves.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { lastFridayClose } from "../helpers/live-data";
import { freePort, superviseServer } from "../helpers/api-server";
import { ensureNextBuild } from "../helpers/next-server";
import { loginName, restrictedLogin } from "../../scripts/restricted-login";

let t: TestDatabase;
let dataDir: string;
/**
 * The demo market with its year of snapshots at a past close (within a run a copy of history.test's template), and the
 * launcher's demo clock set to that instant: its demo-market phase finds the market current and writes nothing, where
 * on an empty database it would build a year of sessions (about 35 s of CPU) that this file does not test
 * (start-phases does).
 */
const marketAt = lastFridayClose(new Date());

async function asLogin<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

describe("npm start serves as a restricted login", () => {
  before(async () => {
    t = await createSeededTestDatabase("rlogin", { seed: "options-research-demo-v1", now: marketAt, history: true });
    dataDir = mkdtempSync(join(tmpdir(), "ora-rlogin-"));
  });
  after(async () => {
    await t?.drop();
    await t?.sql.unsafe(`drop role if exists "${loginName(t.name)}"`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates ora_web_<database> in ora_app, keeps its password in DATA_DIR, and the login cannot touch the audit trail", async () => {
    const login = await restrictedLogin(t, t.url, dataDir, { production: true });
    assert.ok(login);
    assert.equal(login.role, loginName(t.name));
    assert.equal(login.ownerUrl, t.url);
    assert.equal(statSync(join(dataDir, `db-login-${login.role}`)).mode & 0o777, 0o600);
    await asLogin(login.url, async (sql) => {
      const [me] = await sql`select current_user as name, pg_has_role(current_user, 'ora_app', 'USAGE') as app,
        (select rolsuper from pg_roles where rolname = current_user) as superuser`;
      assert.deepEqual({ ...me }, { name: login.role, app: true, superuser: false });
      await sql`select count(*) from users`; // the application's grants
      await assert.rejects(sql`truncate audit_log`, /permission denied|must be owner/);
      await assert.rejects(sql`alter table audit_log disable trigger all`, /must be owner/);
    });
    const again = await restrictedLogin(t, t.url, dataDir, { production: true });
    assert.equal(again?.url, login.url, "the same login and password on the next start");
  });

  it("changes nothing when DATABASE_OWNER_URL is set or DATABASE_URL is already restricted", async () => {
    assert.equal(await restrictedLogin(t, t.url, dataDir, { production: true, ownerUrl: t.url }), null);
    const login = await restrictedLogin(t, t.url, dataDir, { production: true });
    assert.ok(login);
    await asLogin(login.url, async (sql) => {
      const restricted = { ...t, sql } as unknown as TestDatabase;
      assert.equal(await restrictedLogin(restricted, login.url, dataDir, { production: true }), null);
    });
  });

  it("npm start with a superuser DATABASE_URL serves, and every connection the server holds is the restricted login", async () => {
    ensureNextBuild();
    const role = loginName(t.name);
    const probe = postgres(t.url, { max: 1, connection: { application_name: "rlogin-probe" } });
    const byUser = async () =>
      Object.fromEntries(
        (
          await probe<{ usename: string; n: number }[]>`
            select usename, count(*)::int as n from pg_stat_activity
            where datname = ${t.name} and backend_type = 'client backend' and application_name <> 'rlogin-probe'
            group by usename`
        ).map((r) => [r.usename, r.n]),
      ) as Record<string, number>;
    const baseline = (await byUser()).postgres ?? 0; // this test's own pool
    const port = await freePort();
    const inherited = { ...process.env };
    delete inherited.DATABASE_OWNER_URL;
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: {
        ...inherited,
        DATABASE_URL: t.url,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        AUTH_SECRET: "restricted-login-test-secret-0123456789abcdef",
        MAIL_TO_LOG: "on",
        DEMO_TICKER: "off",
        DEMO_CLOCK_AT: marketAt.toISOString(),
        LOG_LEVEL: "warn",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const server = await superviseServer(child, `http://127.0.0.1:${port}`, "npm start", 420_000);
    try {
      const health = (await (await fetch(`${server.baseUrl}/api/v1/health`)).json()) as { data: { status: string } };
      assert.equal(health.data.status, "ok");
      let users: Record<string, number> = {};
      for (let i = 0; i < 50; i++) {
        users = await byUser();
        if (users[role] && (users.postgres ?? 0) <= baseline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(users[role] > 0, `the server holds connections as ${role}: ${JSON.stringify(users)}`);
      assert.ok((users.postgres ?? 0) <= baseline, `no superuser connection but the test's: ${JSON.stringify(users)}`);
    } finally {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {}
      await server.stop().catch(() => {});
      await probe.end();
    }
  });
});
