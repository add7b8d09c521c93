import * as m from "@/server/api-server";
export { m };
