import type { Metadata } from "next";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { buildOpenApi } from "@/lib/api/openapi";
import { allRoutes } from "@/lib/api/routes";
import { playgroundOperations, type PlaygroundOperation } from "@/lib/portal/playground-operations";
import { Playground } from "@/components/portal/playground/playground";
import { PageHeader } from "@/components/ui/page";

export const metadata: Metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

let operations: PlaygroundOperation[] | undefined; // the document is the same for the process's lifetime

export default async function PlaygroundPage() {
  const user = await requirePortalUser({ from: "/dashboard/playground" });
  operations ??= playgroundOperations(buildOpenApi(allRoutes));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Playground"
        description={
          <>
            Call any route through the real gateway. Calls count against the key&apos;s limits and appear in{" "}
            <a href="/dashboard/usage">Usage</a> like any other.
          </>
        }
      />
      <Playground operations={operations} isOwner={user.role === "owner"} />
    </div>
  );
}
