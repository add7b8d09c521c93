import type { Metadata } from "next";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { listTeam } from "@/lib/domain/team";
import { deletionPreview } from "@/lib/domain/account-deletion";
import { portalDb } from "@/lib/server/portal-db";
import { can, ROLE_LABELS } from "@/lib/shared/roles";
import { TeamPanel } from "@/components/portal/team/team-panel";
import { DeleteAccount } from "@/components/portal/team/delete-account";
import { PageHeader } from "@/components/ui/page";

export const metadata: Metadata = { title: "Team" };
export const dynamic = "force-dynamic";

export default async function TeamPage() {
  const user = await requirePortalUser({ from: "/dashboard/team" });
  const db = await portalDb();
  const team = await listTeam(db, user.accountId);
  const owner = can(user.role, "delete_account");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Team"
        description={
          <>
            Members share this account&apos;s keys, quota and plan. You are {ROLE_LABELS[user.role]}. Viewers read
            usage, logs, keys&apos; metadata and the docs; Developers also manage test keys, test webhooks and use the
            playground; Admins also manage live keys, live webhooks, allowed origins and members below Owner; the one
            Owner also changes the plan, transfers ownership and deletes the account.
          </>
        }
      />
      <TeamPanel
        initial={team}
        me={user.userId}
        manage={can(user.role, "members")}
        owner={can(user.role, "transfer_ownership")}
      />
      {owner ? <DeleteAccount preview={await deletionPreview(db, user.accountId)} email={user.email} /> : null}
    </div>
  );
}
