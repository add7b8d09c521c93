import type { Metadata } from "next";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { can, refusal } from "@/lib/shared/roles";
import { listKeys } from "@/lib/domain/keys";
import { portalDb } from "@/lib/server/portal-db";
import { buildOpenApi } from "@/lib/api/openapi";
import { allRoutes } from "@/lib/api/routes";
import { playgroundOperations, type PlaygroundOperation } from "@/lib/portal/playground-operations";
import { Playground } from "@/components/portal/playground/playground";
import { PageHeader } from "@/components/ui/page";

export const metadata: Metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

let operations: PlaygroundOperation[] | undefined; // the document is the same for the process's lifetime

export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<{ key?: string }> }) {
  const user = await requirePortalUser({ from: "/dashboard/playground" });
  operations ??= playgroundOperations(buildOpenApi(allRoutes));
  const [keys, { key }] = await Promise.all([listKeys(await portalDb(), user.accountId), searchParams]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Playground"
        description={
          <>
            Call any route through the real gateway as one of your keys, chosen by name. Calls count against the
            key&apos;s limits and appear in <a href="/dashboard/usage">Usage</a> and <a href="/dashboard/logs">Logs</a>{" "}
            like any other.
          </>
        }
      />
      {can(user.role, "playground") ? null : (
        <p role="note" className="rounded-md border border-warn/40 bg-warn-soft p-3 text-sm text-warn">
          {refusal(user.role, "playground")} You can still read every route and its code here.
        </p>
      )}
      <Playground
        operations={operations}
        role={user.role}
        initialKeys={keys}
        initialKeyId={typeof key === "string" ? key : undefined}
      />
    </div>
  );
}
