/** Sign-up: creates the user, a Sandbox account and the owner membership; the form then signs in with the same credentials. */
import { z } from "zod";
import { signUp } from "@/lib/domain/users";
import { clientAddress, portalError, readJson, sameOrigin, toErrorResponse } from "@/lib/portal/route";
import { requestIdFrom } from "@/lib/api/request-id";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

const body = z.object({
  email: z.string().max(320),
  password: z.string().max(400),
  name: z.string().max(120).optional(),
  acceptTerms: z.boolean(),
}).strict();

export async function POST(request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  if (!sameOrigin(request)) return portalError(403, "csrf_rejected", "This request did not come from the portal's own pages.", requestId);
  try {
    const input = body.parse(await readJson(request));
    const account = await signUp(await portalDb(), input, {
      type: "self", requestId, ip: clientAddress(request), userAgent: request.headers.get("user-agent") ?? undefined,
    });
    return Response.json({ data: { email: account.email, accountId: account.accountId } }, { status: 201, headers: { "x-request-id": requestId } });
  } catch (err) {
    return toErrorResponse(err, requestId, "/api/portal/signup");
  }
}
