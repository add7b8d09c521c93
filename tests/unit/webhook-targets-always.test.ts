import assert from "node:assert/strict";
import { test } from "node:test";
import { checkWebhookUrl } from "../../lib/domain/webhook-targets";

const devPolicy = { allowPrivate: true, production: false };

test("with private targets allowed, link-local and metadata addresses are still refused at registration", async () => {
  for (const url of [
    "http://169.254.169.254/latest/meta-data",
    "https://[fe80::1]/hook",
    "https://[::ffff:169.254.169.254]/hook",
  ]) {
    const refused = await checkWebhookUrl(url, devPolicy);
    assert.match(refused ?? "", /^refused: /, url);
  }
  assert.equal(
    await checkWebhookUrl("http://127.0.0.1:9/hook", devPolicy),
    null,
    "loopback stays allowed in development",
  );
});
