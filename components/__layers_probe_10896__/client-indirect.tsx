"use client";
import { y as m } from "./middle";
export const X = () => String(m);
