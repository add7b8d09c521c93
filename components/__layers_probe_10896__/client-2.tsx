"use client";
import * as m from "@/lib/server/gateway";
export const X = () => String(m);
