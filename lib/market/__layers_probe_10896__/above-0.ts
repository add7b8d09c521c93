import * as m from "@/lib/api/errors";
export { m };
