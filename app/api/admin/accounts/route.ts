/** Account search by e-mail, account id or key prefix. */
import { searchAccounts } from "@/lib/domain/admin-accounts";
import { searchQuery } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../portal/portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ admin: true, query: searchQuery }, ({ db, query }) => searchAccounts(db, query.q));
