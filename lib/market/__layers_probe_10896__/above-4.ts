import * as m from "@/lib/domain/errors";
export { m };
