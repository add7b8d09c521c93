import * as m from "@/lib/auth/settings";
export { m };
