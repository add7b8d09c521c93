import * as m from "@/lib/portal/types";
export { m };
