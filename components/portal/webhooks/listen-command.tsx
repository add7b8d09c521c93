/** The webhooks page's "Test on your machine" block: the `webhooks listen` command with the user's own values. */
export function ListenCommand({ command, keyName }: { command: string; keyName: string | null }) {
  return (
    <section aria-labelledby="listen-heading" className="max-w-3xl space-y-2" data-testid="webhooks-listen">
      <h2 id="listen-heading" className="text-lg font-semibold">
        Test on your machine
      </h2>
      <p className="text-sm text-muted">
        Forward your test key&apos;s events to a local endpoint, signed like real deliveries (like{" "}
        <code>stripe listen</code>). The command prints the signing secret to verify them with first.{" "}
        {keyName
          ? `It uses your test key “${keyName}”: put the full key (shown once, when you made it) in place of the prefix.`
          : "Make a test key on the API keys page first."}
      </p>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard user can scroll a long command
        tabIndex={0}
        className="overflow-x-auto rounded-lg bg-code-bg p-4 text-sm text-code-fg"
        data-testid="webhooks-listen-command"
      >
        {command}
      </pre>
    </section>
  );
}
