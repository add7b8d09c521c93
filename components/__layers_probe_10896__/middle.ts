import * as d from "@/lib/domain/errors";
export const y = d;
