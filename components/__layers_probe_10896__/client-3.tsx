"use client";
import * as m from "@/db/schema/index";
export const X = () => String(m);
