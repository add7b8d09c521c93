/**
 * Which browser origins may read API answers (docs/api-contract.md §11): the operator's CORS_ORIGINS, and each account's
 * "Allowed browser origins" (lib/domain/browser-origins.ts), re-read at most every CONFIG_CACHE_TTL_MS and only when a
 * request carries an Origin header.
 */
import type { Db } from "../../db/client";
import { allBrowserOrigins } from "../../domain/browser-origins";
import { errorFields, log } from "../../log";

export interface OriginLists {
  byAccount: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every origin some account lists: a preflight carries no key, so it is answered for any of them. */
  anyAccount: ReadonlySet<string>;
}

export interface OriginSource {
  /** The operator's origins (`*`: every origin). */
  operator: ReadonlySet<string>;
  accounts(): Promise<OriginLists>;
}

const NONE: OriginLists = { byAccount: new Map(), anyAccount: new Set() };

/** CORS_ORIGINS: comma-separated origins, or `*`. */
export function parseOperatorOrigins(value: string | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => (o === "*" ? o : new URL(o).origin)),
  );
}

/** Account lists from the database, cached for ttlMs; a failed read allows no account origin (fails closed). */
export function databaseOrigins(db: Db, ttlMs: number, operator: ReadonlySet<string>): OriginSource {
  let cached: { lists: OriginLists; at: number } | null = null;
  let loading: Promise<OriginLists> | null = null;
  const load = async (): Promise<OriginLists> => {
    try {
      const rows = await allBrowserOrigins(db);
      const byAccount = new Map([...rows].map(([id, list]) => [id, new Set(list)]));
      const lists = { byAccount, anyAccount: new Set([...rows.values()].flat()) };
      cached = { lists, at: Date.now() };
      return lists;
    } catch (err) {
      log.warn("browser origins unavailable", errorFields(err));
      return cached?.lists ?? NONE;
    } finally {
      loading = null;
    }
  };
  return {
    operator,
    accounts() {
      if (cached && Date.now() - cached.at < ttlMs) return Promise.resolve(cached.lists);
      loading ??= load();
      return loading;
    },
  };
}
