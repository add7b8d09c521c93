import * as m from "@/components/providers";
export { m };
