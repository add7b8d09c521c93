import * as m from "@/scripts/cli";
export { m };
