import { Badge } from "@/components/ui/badge";
import { Truncate } from "@/components/ui/truncate";

/** A usage table's row header naming a key: its name, environment, revoked state and display prefix. */
export function KeyName({
  name,
  prefix,
  env,
  revoked = false,
}: {
  name: string;
  prefix: string;
  env: "test" | "live";
  revoked?: boolean;
}) {
  return (
    <>
      <span className="flex min-w-0 items-center gap-2">
        <Truncate text={name} />
        <Badge tone={env === "test" ? "neutral" : "info"} className="shrink-0">
          {env === "test" ? "Test" : "Live"}
        </Badge>
        {revoked ? (
          <Badge tone="bad" className="shrink-0">
            Revoked
          </Badge>
        ) : null}
      </span>
      <code className="block bg-transparent p-0 text-xs font-normal text-muted">{prefix}…</code>
    </>
  );
}
