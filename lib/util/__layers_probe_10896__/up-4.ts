import * as m from "@/bench/engine";
export { m };
