/**
 * The e2e run's mailbox: every message the e2e server sent, as kept by the SMTP server in e2e/serve.mjs (one file per
 * message under the server's data directory). Read fresh on every access, so specs on other workers see the same mail.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { e2eDataDirOf } from "./e2e-env";
import { type MailReader, type ReceivedMail, waitForMail } from "./mailbox";

/** The e2e server's mailbox (the server at E2E_PORT), found on first use: a spec may create it at module level. */
export function e2eMailbox(): MailReader {
  const read = (): ReceivedMail[] => {
    const dir = join(e2eDataDirOf(), "mail");
    return readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ReceivedMail);
  };
  return {
    get messages() {
      return read();
    },
    waitFor: (to, timeoutMs) => waitForMail(read, to, timeoutMs),
  };
}
