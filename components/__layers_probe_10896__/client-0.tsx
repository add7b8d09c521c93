"use client";
import * as m from "@/lib/db/tx";
export const X = () => String(m);
