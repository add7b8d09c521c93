import * as m from "@/lib/server/gateway";
export { m };
