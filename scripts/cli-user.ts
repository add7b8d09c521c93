/** Operator CLI: `user set-password --email E` (password on stdin) and `user verify --email E`. */
import type { Db } from "../lib/db/client";
import type { Actor } from "../lib/domain/audit";
import { requireAccountByEmail } from "../lib/domain/accounts";
import { markEmailVerified, setPassword } from "../lib/domain/user-credentials";

export const USER_USAGE = `
  user set-password --email E   (the new password is read from stdin)
  user verify --email E`;

export interface UserCommandTools {
  actor: Actor;
  /** A required flag's value, or a usage error (exit 2). */
  need(name: string): string;
  usage(message: string): Error;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text.replace(/\r?\n$/, "");
}

export async function runUserCommand(db: Db, action: string | undefined, tools: UserCommandTools): Promise<unknown> {
  switch (action) {
    case "set-password": {
      const { userId, email } = await requireAccountByEmail(db, tools.need("email"));
      const password = await readStdin();
      if (password === "")
        throw tools.usage("the new password is read from stdin: printf '%s' \"$PW\" | cli user set-password --email E");
      await setPassword(db, userId, password, tools.actor);
      return { userId, email, passwordSet: true };
    }
    case "verify": {
      const { userId } = await requireAccountByEmail(db, tools.need("email"));
      return markEmailVerified(db, userId, tools.actor);
    }
    default:
      throw tools.usage(`unknown command 'user ${action ?? ""}'`);
  }
}
