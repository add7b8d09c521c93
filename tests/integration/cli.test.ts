/**
 * The operator CLI (scripts/cli.ts) run as a child process against a test database: JSON on stdout, a one-line reason
 * on stderr and a non-zero exit on failure (2 for usage errors), and the database state after every command.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { meteredRoutes } from "../../lib/api/routes";
import { bundled } from "../helpers/bundles";

let t: TestDatabase;
const stdouts: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stderr without npm's own warnings about the machine's npm configuration (they come from npx, not the CLI). */
  lines: string[];
  json: any;
}

function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [bundled("cli"), ...args],
      { env: { ...process.env, DATABASE_URL: t.url, LOG_LEVEL: "warn" }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const exit = (err as { code?: unknown } | null)?.code;
        if (err && typeof exit !== "number") return reject(err); // killed by the timeout, or npx not found
        const code = err ? (exit as number) : 0;
        stdouts.push(stdout);
        let json: unknown;
        try {
          json = stdout.trim() ? JSON.parse(stdout) : undefined;
        } catch {
          json = undefined;
        }
        const lines = stderr.split("\n").filter((l) => l.trim() !== "" && !/^npm warn /i.test(l));
        resolve({ code, stdout, stderr, lines, json });
      },
    );
  });
}

const HEX64 = /[0-9a-f]{64}/i;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

async function auditRows(action: string) {
  return t.sql`select actor_type, actor_id, action, target, before, after from audit_log where action = ${action} order by id`;
}

async function count(table: string, where = "true"): Promise<number> {
  const [r] = await t.sql.unsafe(`select count(*)::int as n from ${table} where ${where}`);
  return r.n as number;
}

describe("operator CLI", () => {
  const email = "Ops.Alice@Example.com";
  const normal = "ops.alice@example.com";
  let accountId = "";
  const keys: Record<string, { id: string; key: string }> = {};

  before(async () => {
    t = await createTestDatabase("cli");
  });
  after(async () => {
    await t?.drop();
  });

  it("account create prints the account as JSON and writes account, owner and audit rows", async () => {
    const r = await cli("account", "create", "--email", email, "--plan", "starter");
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines, []);
    assert.match(r.json.accountId, /^[0-9a-f-]{36}$/);
    assert.match(r.json.userId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { ...r.json, accountId: undefined, userId: undefined },
      { accountId: undefined, userId: undefined, email: normal, plan: "starter", status: "active", admin: false },
    );
    accountId = r.json.accountId;
    const [acc] =
      await t.sql`select a.plan_id, a.status, u.email, m.role from accounts a join memberships m on m.account_id = a.id join users u on u.id = m.user_id where a.id = ${accountId}`;
    assert.deepEqual({ ...acc }, { plan_id: "starter", status: "active", email: normal, role: "owner" });
    const audit = await auditRows("account.create");
    assert.equal(audit.length, 1);
    assert.deepEqual([audit[0].actor_type, audit[0].actor_id.startsWith("cli:")], ["admin", true]);
    assert.equal(audit[0].target, `account:${accountId}`);

    const plain = await cli("account", "create", "--email", "bob@example.com");
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.json.plan, "sandbox", "default plan");
  });

  it("a duplicate account fails with a non-zero exit, one line on stderr, nothing written", async () => {
    const accounts = await count("accounts");
    const r = await cli("account", "create", "--email", normal.toUpperCase());
    assert.notEqual(r.code, 0);
    assert.equal(r.lines.length, 1, `stderr: ${r.stderr}`);
    assert.match(r.lines[0], /already exists/);
    assert.equal(r.stdout, "");
    assert.equal(await count("accounts"), accounts);
    assert.equal((await auditRows("account.create")).length, 2);
  });

  it("account set-plan changes the plan and audits it; an unknown plan is refused", async () => {
    const r = await cli("account", "set-plan", "--email", normal, "--plan", "pro");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.plan, "pro");
    assert.equal(r.json.accountId, accountId);
    assert.equal((await t.sql`select plan_id from accounts where id = ${accountId}`)[0].plan_id, "pro");
    const audit = await auditRows("account.set_plan");
    assert.deepEqual(
      audit.map((a) => [a.before, a.after]),
      [[{ plan: "starter" }, { plan: "pro" }]],
    );

    const [bad, nobody] = await Promise.all([
      cli("account", "set-plan", "--email", normal, "--plan", "gold"),
      cli("account", "set-plan", "--email", "nobody@example.com", "--plan", "pro"),
    ]);
    assert.notEqual(bad.code, 0);
    assert.equal(bad.lines.length, 1, bad.stderr);
    assert.equal((await t.sql`select plan_id from accounts where id = ${accountId}`)[0].plan_id, "pro");
    assert.notEqual(nobody.code, 0);
    assert.equal(nobody.lines.length, 1, nobody.stderr);
  });

  it("key create issues svc_test_ / svc_live_ / svc_sk_live_ keys and stores only their digest", async () => {
    const cases = [
      { args: ["--env", "test"], prefix: "svc_test_", env: "test", style: "standard", plan: "sandbox", name: "test" },
      { args: ["--env", "live"], prefix: "svc_live_", env: "live", style: "standard", plan: "pro", name: "live" },
      {
        args: ["--env", "live", "--style", "sk"],
        prefix: "svc_sk_live_",
        env: "live",
        style: "sk",
        plan: "pro",
        name: "sk",
      },
    ];
    for (const c of cases) {
      const r = await cli("key", "create", "--email", normal, ...c.args);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(Object.keys(r.json).sort(), ["env", "id", "key", "plan", "prefix"]);
      assert.equal(r.json.env, c.env);
      assert.equal(r.json.plan, c.plan);
      assert.ok(r.json.key.startsWith(c.prefix), r.json.key);
      assert.match(r.json.key, /^svc_(test|live|sk_live)_[0-9A-Za-z]{30}$/);
      assert.ok(
        r.json.key.startsWith(r.json.prefix) && r.json.prefix.length < r.json.key.length - 20,
        `prefix ${r.json.prefix} is a short display form`,
      );
      const [row] =
        await t.sql`select account_id::text as account_id, env, style, status, prefix, digest from api_keys where id = ${r.json.id}`;
      assert.deepEqual(
        { ...row },
        {
          account_id: accountId,
          env: c.env,
          style: c.style,
          status: "active",
          prefix: r.json.prefix,
          digest: sha256(r.json.key),
        },
      );
      const stored =
        await t.sql`select count(*)::int as n from api_keys k where position(${r.json.key} in row_to_json(k)::text) > 0`;
      assert.equal(stored[0].n, 0, "the full key is not stored");
      keys[c.name] = { id: r.json.id, key: r.json.key };
    }
    const [sandboxUser, testSk, badEnv] = await Promise.all([
      cli("key", "create", "--email", "bob@example.com", "--env", "test"),
      cli("key", "create", "--email", normal, "--env", "test", "--style", "sk"),
      cli("key", "create", "--email", normal, "--env", "prod"),
    ]);
    assert.equal(sandboxUser.json.plan, "sandbox");
    assert.notEqual(testSk.code, 0);
    assert.equal(testSk.lines.length, 1, testSk.stderr);
    assert.equal(badEnv.code, 2);
    assert.match(badEnv.lines[0], /--env/);
    assert.equal(await count("api_keys"), 4);
    assert.equal((await auditRows("key.create")).length, 4);
  });

  it("key deactivate / activate / revoke change the state; a revoked key cannot be activated", async () => {
    const id = keys.test.id;
    const state = async () => (await t.sql`select status, revoked_at from api_keys where id = ${id}`)[0];
    const d = await cli("key", "deactivate", "--id", id);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.json.status, "inactive");
    assert.equal((await state()).status, "inactive");
    const a = await cli("key", "activate", "--id", id);
    assert.equal(a.code, 0, a.stderr);
    assert.equal((await state()).status, "active");
    const again = await cli("key", "activate", "--id", id);
    assert.notEqual(again.code, 0, "activating an active key is a conflict");
    assert.equal(again.lines.length, 1, again.stderr);
    const rv = await cli("key", "revoke", "--id", id);
    assert.equal(rv.code, 0, rv.stderr);
    assert.equal(rv.json.status, "revoked");
    const s = await state();
    assert.equal(s.status, "revoked");
    assert.ok(s.revoked_at, "revoked_at set");
    const actions = ["activate", "deactivate", "revoke"];
    const [missing, ...onRevoked] = await Promise.all([
      cli("key", "revoke", "--id", "key_doesnotexist"),
      ...actions.map((a) => cli("key", a, "--id", id)),
    ]);
    onRevoked.forEach((r, i) => {
      assert.notEqual(r.code, 0, `${actions[i]} on a revoked key`);
      assert.equal(r.lines.length, 1, r.stderr);
      assert.match(r.lines[0], /revoked/);
    });
    assert.equal((await state()).status, "revoked");
    assert.notEqual(missing.code, 0);
    assert.equal(missing.lines.length, 1);
    const audit = await t.sql`select action, before, after from audit_log where target = ${`key:${id}`} order by id`;
    assert.deepEqual(
      audit.map((x) => x.action),
      ["key.create", "key.deactivate", "key.activate", "key.revoke"],
    );
    assert.deepEqual([audit[3].before, audit[3].after], [{ status: "active" }, { status: "revoked" }]);
  });

  it("endpoint list shows every metered route with its licensing; live options-flow is pending by default", async () => {
    const r = await cli("endpoint", "list");
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Array.isArray(r.json));
    assert.deepEqual(r.json.map((e: { id: string }) => e.id).sort(), meteredRoutes.map((x) => x.id).sort());
    for (const e of r.json) {
      const route = meteredRoutes.find((x) => x.id === e.id)!;
      assert.deepEqual(
        { method: e.method, path: e.path, family: e.family },
        { method: route.method, path: route.path, family: route.family },
      );
      const expected =
        e.id === "GET /api/v1/options-flow"
          ? { test: "enabled", live: "pending_licensing" }
          : { test: "enabled", live: "enabled" };
      assert.deepEqual(e.licensing, expected, e.id);
    }
    assert.ok(
      !r.json.some((e: { path: string }) => e.path === "/api/v1/health" || e.path === "/api/v1/openapi.json"),
      "unmetered routes are not listed",
    );
  });

  it("`npm run -s cli` (tsx on the sources, as an operator types it) answers as the bundle the other tests run", async () => {
    const viaNpm = await new Promise<{ code: number; stdout: string }>((resolve, reject) =>
      execFile(
        "npm",
        ["run", "-s", "cli", "--", "endpoint", "list"],
        { env: { ...process.env, DATABASE_URL: t.url, LOG_LEVEL: "warn" }, timeout: 60_000 },
        (err, stdout) => {
          const exit = (err as { code?: unknown } | null)?.code;
          if (err && typeof exit !== "number") return reject(err);
          resolve({ code: err ? (exit as number) : 0, stdout });
        },
      ),
    );
    const viaBundle = await cli("endpoint", "list");
    assert.equal(viaNpm.code, 0);
    assert.deepEqual(JSON.parse(viaNpm.stdout), viaBundle.json);
  });

  it("endpoint set-licensing changes the state with a reason and audits actor and reason", async () => {
    const r = await cli(
      "endpoint",
      "set-licensing",
      "--path",
      "/api/v1/options-flow",
      "--env",
      "live",
      "--state",
      "enabled",
      "--reason",
      "Licence signed with the exchange",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.json.map((e: { id: string; licensing: unknown }) => [e.id, e.licensing]),
      [["GET /api/v1/options-flow", { test: "enabled", live: "enabled" }]],
    );
    const [row] =
      await t.sql`select state, reason, updated_by from endpoint_licensing where endpoint_id = 'GET /api/v1/options-flow' and env = 'live'`;
    assert.equal(row.state, "enabled");
    assert.equal(row.reason, "Licence signed with the exchange");
    assert.match(row.updated_by, /^admin:cli:/);
    const audit = await auditRows("endpoint.set_licensing");
    assert.equal(audit.length, 1);
    assert.deepEqual([audit[0].actor_type, audit[0].actor_id.startsWith("cli:")], ["admin", true]);
    assert.equal(audit[0].target, "endpoint:GET /api/v1/options-flow");
    assert.deepEqual(
      [audit[0].before, audit[0].after],
      [
        { env: "live", state: "pending_licensing" },
        { env: "live", state: "enabled", reason: "Licence signed with the exchange" },
      ],
    );

    // A later `endpoint list` (which re-seeds reference data) keeps the admin's decision.
    const list = await cli("endpoint", "list");
    assert.deepEqual(list.json.find((e: { id: string }) => e.id === "GET /api/v1/options-flow").licensing, {
      test: "enabled",
      live: "enabled",
    });
  });

  it("endpoint set-licensing without a reason (or with a blank / too short one, or an unknown path) fails and writes nothing", async () => {
    const before = {
      audit: await count("audit_log"),
      state: (
        await t.sql`select state, reason from endpoint_licensing where endpoint_id = 'GET /api/v1/options-flow' and env = 'live'`
      )[0],
    };
    const base = [
      "endpoint",
      "set-licensing",
      "--path",
      "/api/v1/options-flow",
      "--env",
      "live",
      "--state",
      "pending_licensing",
    ];
    const [missing, blank, short, unknown, badState] = await Promise.all([
      cli(...base),
      cli(...base, "--reason", "  "),
      cli(...base, "--reason", "x"),
      cli(
        "endpoint",
        "set-licensing",
        "--path",
        "/api/v1/nope",
        "--env",
        "live",
        "--state",
        "enabled",
        "--reason",
        "because",
      ),
      cli(...base.slice(0, -1), "off", "--reason", "because"),
    ]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.lines[0], /--reason/, `first stderr line names the missing flag: ${missing.stderr}`);
    assert.equal(missing.stdout, "");
    assert.notEqual(blank.code, 0);
    assert.match(blank.lines[0], /reason/);
    assert.notEqual(short.code, 0);
    assert.equal(short.lines.length, 1, short.stderr);
    assert.match(short.lines[0], /reason/);
    assert.notEqual(unknown.code, 0);
    assert.equal(unknown.lines.length, 1, unknown.stderr);
    assert.equal(badState.code, 2);
    assert.equal(await count("audit_log"), before.audit);
    assert.deepEqual(
      {
        ...(
          await t.sql`select state, reason from endpoint_licensing where endpoint_id = 'GET /api/v1/options-flow' and env = 'live'`
        )[0],
      },
      { ...before.state },
    );
  });

  it("usage errors exit 2: unknown command, unknown flag, no command", async () => {
    const [unknown, flag, none, noEmail] = await Promise.all([
      cli("frobnicate", "all"),
      cli("endpoint", "list", "--bogus"),
      cli(),
      cli("account", "create"),
    ]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.lines[0], /unknown command/);
    assert.equal(unknown.stdout, "");
    assert.equal(flag.code, 2);
    assert.equal(none.code, 2);
    assert.equal(noEmail.code, 2);
    assert.match(noEmail.lines[0], /--email/);
  });

  it("import treasury writes the good file and reports it as JSON", async () => {
    const r = await cli("import", "treasury", "--file", "tests/fixtures/import/treasury-good.csv");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.ok, true);
    assert.equal(r.json.kind, "treasury");
    assert.equal(r.json.env, "live");
    assert.deepEqual(r.json.errors, []);
    assert.ok(r.json.inserted > 0);
    assert.equal(await count("treasury_yields", "env = 'live'"), r.json.inserted);
    const runs = await t.sql`select kind, env, file_name, rows from import_runs`;
    assert.deepEqual(
      runs.map((x) => [x.kind, x.env, x.file_name, x.rows]),
      [["treasury", "live", "treasury-good.csv", r.json.rows]],
    );
  });

  it("import of a bad file exits non-zero and writes nothing", async () => {
    const before = {
      yields: await count("treasury_yields"),
      runs: await count("import_runs"),
      versions: await t.sql`select * from market_data_versions order by 1`,
    };
    const files = ["treasury-bad.csv", "treasury-bad-header.csv"];
    const [missing, badKind, ...bad] = await Promise.all([
      cli("import", "treasury", "--file", "tests/fixtures/import/no-such-file.csv"),
      cli("import", "quotes", "--file", "tests/fixtures/import/treasury-good.csv"),
      ...files.map((f) => cli("import", "treasury", "--file", `tests/fixtures/import/${f}`)),
    ]);
    for (const [i, file] of files.entries()) {
      const r = bad[i];
      assert.notEqual(r.code, 0, file);
      assert.equal(r.lines.length, 1, `${file}: ${r.stderr}`);
      assert.match(r.lines[0], /nothing written/);
      if (r.json) assert.equal(r.json.ok, false);
    }
    assert.notEqual(missing.code, 0);
    assert.equal(missing.lines.length, 1, missing.stderr);
    assert.equal(badKind.code, 2);
    assert.equal(await count("treasury_yields"), before.yields);
    assert.equal(await count("import_runs"), before.runs);
    assert.deepEqual(await t.sql`select * from market_data_versions order by 1`, before.versions);
  });

  it("help lists every command; account list, key list and usage find ids and numbers by e-mail", async () => {
    const help = await cli("help");
    assert.equal(help.code, 0, help.stderr);
    for (const cmd of [
      "account list",
      "key list --email E",
      "usage --email E [--days N]",
      "user verify --email E",
      "access approve --id ID",
      "endpoint set-licensing",
    ]) {
      assert.ok(help.stdout.includes(cmd), `help names ${cmd}`);
    }
    const accounts = await cli("account", "list");
    assert.equal(accounts.code, 0, accounts.stderr);
    const mine = accounts.json.find((a: { owner: string }) => a.owner === normal);
    assert.equal(mine.accountId, accountId);
    assert.equal(mine.keys, await count("api_keys", `account_id = '${accountId}'`));

    const listed = await cli("key", "list", "--email", email);
    assert.equal(listed.code, 0, listed.stderr);
    const ids = (await t.sql`select id from api_keys where account_id = ${accountId} order by created_at, id`).map(
      (r) => r.id,
    );
    assert.deepEqual(listed.json.map((k: { id: string }) => k.id).sort(), [...ids].sort());
    for (const k of listed.json)
      assert.deepEqual(
        Object.keys(k).filter((f) => /digest|key$/i.test(f)),
        [],
        "no key material in the listing",
      );

    const today = new Date().toISOString().slice(0, 10);
    const [endpoint] = await t.sql`select id from endpoints order by id limit 1`;
    await t.sql`insert into usage_daily (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
      values (${ids[0]}, ${accountId}, ${today}::date, ${endpoint.id}, 7, 5, 2, 0, 70)`;
    const usage = await cli("usage", "--email", normal, "--days", "3");
    assert.equal(usage.code, 0, usage.stderr);
    assert.deepEqual({ days: usage.json.days, total: usage.json.totalCalls }, { days: 3, total: 7 });
    assert.deepEqual(usage.json.rows, [
      { day: today, endpointId: endpoint.id, calls: 7, ok: 5, clientErrors: 2, serverErrors: 0 },
    ]);

    const [badDays, noEmail, nobody] = await Promise.all([
      cli("usage", "--email", normal, "--days", "0"),
      cli("key", "list"),
      cli("key", "list", "--email", "nobody@example.com"),
    ]);
    assert.equal(badDays.code, 2);
    assert.match(badDays.lines[0], /--days/);
    assert.equal(noEmail.code, 2);
    assert.notEqual(nobody.code, 0);
    assert.equal(nobody.lines.length, 1, nobody.stderr);
  });

  it("stdout never carries a key digest (or any 64-hex string)", async () => {
    const digests = (await t.sql`select digest from api_keys`).map((r) => r.digest as string);
    assert.ok(digests.length >= 4 && stdouts.length >= 20);
    for (const out of stdouts) {
      assert.doesNotMatch(out, HEX64);
      for (const d of digests) assert.ok(!out.includes(d));
    }
  });
});

describe("cli without a reachable database", () => {
  it("says so on one line and exits 1, with no stack trace", async () => {
    const { createServer } = await import("node:net");
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const run = await new Promise<{ code: number; stderr: string; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        [bundled("cli"), "endpoint", "list"],
        { env: { ...process.env, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none`, LOG_LEVEL: "warn" } },
        (err, stdout, stderr) => resolve({ code: (err as { code?: number } | null)?.code ?? 0, stderr, stdout }),
      ),
    );
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    const lines = run.stderr.split("\n").filter((l) => l.trim() !== "");
    assert.deepEqual(lines, [`error: cannot open the database: connect ECONNREFUSED 127.0.0.1:${port}`]);
  });
});
