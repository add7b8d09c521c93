import * as m from "@/app/layout";
export { m };
