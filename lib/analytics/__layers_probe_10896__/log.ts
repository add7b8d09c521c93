import * as m from "@/lib/log";
export { m };
