/** The operator CLI's user commands (scripts/cli-user.ts) run as child processes against a test database. */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { verifyCredentials } from "../../lib/domain/users";
import { bundled } from "../helpers/bundles";

let t: TestDatabase;

interface Run {
  code: number;
  stdout: string;
  lines: string[];
  json: any;
}

/** Runs the CLI with `stdin` written to its standard input (then closed). */
function cli(stdin: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundled("cli"), ...args], {
      env: { ...process.env, DATABASE_URL: t.url, LOG_LEVEL: "warn" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => {
      let json: unknown;
      try {
        json = stdout.trim() ? JSON.parse(stdout) : undefined;
      } catch {
        json = undefined;
      }
      resolve({
        code: code ?? 1,
        stdout,
        lines: stderr.split("\n").filter((l) => l.trim() !== "" && !/^npm warn /i.test(l)),
        json,
      });
    });
    child.stdin.end(stdin);
  });
}

const audits = (action: string) =>
  t.sql`select actor_type, actor_id, target from audit_log where action = ${action} order by id`;

describe("operator CLI: user commands", () => {
  const email = "ops.user@example.com";
  let userId = "";

  before(async () => {
    t = await createTestDatabase("cliuser");
    const r = await cli("", "account", "create", "--email", email);
    assert.equal(r.code, 0, r.lines.join("\n"));
    userId = r.json.userId;
  });
  after(async () => {
    await t?.drop();
  });

  it("user set-password reads the password from stdin, stores an argon2id hash and audits it", async () => {
    const r = await cli("a long operator-set password\n", "user", "set-password", "--email", email.toUpperCase());
    assert.equal(r.code, 0, r.lines.join("\n"));
    assert.deepEqual(r.json, { userId, email, passwordSet: true });
    assert.ok(!r.stdout.includes("operator-set"), "the password is never printed");
    const [row] = await t.sql`select password_hash from users where id = ${userId}`;
    assert.match(row.password_hash, /^\$argon2id\$/);
    assert.equal((await verifyCredentials(t.db, email, "a long operator-set password"))?.id, userId);
    const rows = await audits("user.set_password");
    assert.deepEqual(
      rows.map((a) => [a.actor_type, a.target]),
      [["admin", `user:${userId}`]],
    );
    assert.ok(!JSON.stringify(rows).includes("operator-set"));
  });

  it("user set-password refuses an empty stdin (usage, exit 2), a short password and an unknown e-mail (exit 1), writing nothing", async () => {
    const [before] = await t.sql`select password_hash from users where id = ${userId}`;
    const empty = await cli("", "user", "set-password", "--email", email);
    assert.equal(empty.code, 2);
    assert.match(empty.lines[0], /read from stdin/);
    const short = await cli("short\n", "user", "set-password", "--email", email);
    assert.equal(short.code, 1);
    assert.deepEqual(short.lines, ["Use 10 to 200 characters for the password."]);
    const nobody = await cli("a long enough password\n", "user", "set-password", "--email", "nobody@example.com");
    assert.equal(nobody.code, 1);
    assert.deepEqual(nobody.lines, ["no account for nobody@example.com"]);
    const missing = await cli("", "user", "set-password");
    assert.equal(missing.code, 2);
    assert.match(missing.lines[0], /--email is required/);
    const [afterRow] = await t.sql`select password_hash from users where id = ${userId}`;
    assert.equal(afterRow.password_hash, before.password_hash);
    assert.equal((await audits("user.set_password")).length, 1);
  });

  it("user verify marks the address verified once (idempotent, one audit row); unknown commands are usage errors", async () => {
    const r = await cli("", "user", "verify", "--email", email);
    assert.equal(r.code, 0, r.lines.join("\n"));
    assert.equal(r.json.userId, userId);
    assert.ok(!Number.isNaN(Date.parse(r.json.emailVerified)));
    const [row] = await t.sql`select email_verified from users where id = ${userId}`;
    assert.notEqual(row.email_verified, null);
    const again = await cli("", "user", "verify", "--email", email);
    assert.equal(again.code, 0);
    assert.equal(again.json.emailVerified, r.json.emailVerified);
    assert.equal((await audits("user.verify_email")).length, 1);
    const unknown = await cli("", "user", "promote", "--email", email);
    assert.equal(unknown.code, 2);
    assert.match(unknown.lines[0], /unknown command 'user promote'/);
  });
});
