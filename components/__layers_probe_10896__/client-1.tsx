"use client";
import * as m from "@/lib/domain/errors";
export const X = () => String(m);
