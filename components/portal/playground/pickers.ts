"use client";

import { useQuery } from "@tanstack/react-query";
import type { PlaygroundResponse } from "@/lib/portal/playground-call";
import { portalFetch } from "../portal-fetch";

type Json = Record<string, unknown>;

/** The payload of a family B answer, wherever the envelope puts it. */
const payload = (body: unknown): Json => {
  const b = (body ?? {}) as Json;
  return ((b.data as Json | undefined) ?? b) as Json;
};

async function discovery(keyId: string, operation: string, params: Record<string, string> = {}): Promise<Json | null> {
  const r = await portalFetch<PlaygroundResponse>("/api/portal/playground/call", {
    body: { operation, params, keyId },
  });
  return r.status === 200 ? payload(r.body) : null;
}

export interface Expiry {
  expiry: string;
  strikes: number[];
}

/**
 * Symbols and a symbol's expiries (with strikes) from the discovery routes, called as the own key chosen in the
 * playground (never a pasted one), and only when asked for or when the route takes an expiry: each is a metered call,
 * once per key and session.
 */
export function usePickers(enabled: { symbols: boolean; expiries: boolean }, symbol: string, keyId?: string) {
  const symbols = useQuery({
    queryKey: ["playground-pickers", "symbols", keyId],
    queryFn: async () => {
      const p = await discovery(keyId ?? "", "GET /api/v1/symbols");
      return ((p?.symbols as { symbol: string; name: string }[] | undefined) ?? []).map((s) => ({
        symbol: s.symbol,
        name: s.name,
      }));
    },
    enabled: enabled.symbols && Boolean(keyId),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const clean = symbol.trim().toUpperCase();
  const expiries = useQuery({
    queryKey: ["playground-pickers", "expiries", clean, keyId],
    queryFn: async () => {
      const p = await discovery(keyId ?? "", "GET /api/v1/symbols/{symbol}/expiries", { symbol: clean });
      return { spot: Number(p?.spot ?? 0), expiries: (p?.expiries as Expiry[] | undefined) ?? [] };
    },
    enabled: enabled.expiries && Boolean(keyId) && /^[A-Z.-]{1,8}$/.test(clean),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { symbols: symbols.data ?? [], expiries: expiries.data ?? null };
}

/** The strike nearest the spot price: a valid single-strike example. */
export function atTheMoney(strikes: number[], spot: number): number | undefined {
  return [...strikes].sort((a, b) => Math.abs(a - spot) - Math.abs(b - spot))[0];
}
