import { handlers } from "@/lib/auth/config";
import { boundedAuthPost } from "@/lib/auth/bounded-handler";

export const runtime = "nodejs";
export const GET = handlers.GET;
export const POST = boundedAuthPost(handlers.POST);
