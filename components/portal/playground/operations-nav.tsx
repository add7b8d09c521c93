"use client";

import { useState } from "react";
import type { PlaygroundOperation } from "@/lib/portal/playground-operations";
import { cx } from "@/components/ui/cx";
import { SearchInput } from "@/components/ui/search-input";

const METHOD_TONE: Record<string, string> = {
  GET: "text-ok",
  POST: "text-info",
  PATCH: "text-warn",
  DELETE: "text-bad",
};

/** The playground's list of operations by group, with a search box (wide screens; phones use the Route select). */
export function OperationsNav({
  groups,
  current,
  onChoose,
}: {
  groups: { name: string; ops: PlaygroundOperation[] }[];
  current: string;
  onChoose: (id: string) => void;
}) {
  const [search, setSearch] = useState("");
  const needle = search.trim().toLowerCase();
  const shown = groups
    .map((g) => ({
      ...g,
      ops: g.ops.filter((o) => !needle || `${o.id} ${o.summary} ${g.name}`.toLowerCase().includes(needle)),
    }))
    .filter((g) => g.ops.length > 0);
  return (
    <nav aria-label="Operations" className="space-y-3 max-lg:hidden lg:sticky lg:top-20 lg:self-start">
      <label htmlFor="pg-search" className="sr-only">
        Find an operation
      </label>
      <SearchInput
        id="pg-search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder="Find an operation"
      />
      <div className="max-h-[calc(100vh-10rem)] space-y-3 overflow-y-auto pr-1">
        {shown.length === 0 ? <p className="text-sm text-muted">No operation matches “{search}”.</p> : null}
        {shown.map((g) => (
          <div key={g.name}>
            <p className="px-2 pb-1 text-xs font-semibold text-muted">{g.name}</p>
            <ul>
              {g.ops.map((o) => (
                <li key={o.id}>
                  <button
                    type="button"
                    onClick={() => onChoose(o.id)}
                    aria-current={o.id === current ? "true" : undefined}
                    title={o.id}
                    className={cx(
                      "flex w-full min-w-0 items-baseline gap-2 rounded-md px-2 py-1 text-left text-sm",
                      o.id === current ? "bg-accent-soft" : "hover:bg-hover",
                    )}
                  >
                    <span
                      className={cx("w-12 shrink-0 font-mono text-[0.6875rem] font-semibold", METHOD_TONE[o.method])}
                    >
                      {o.method}
                    </span>
                    <span className="min-w-0 truncate">{o.summary || o.path}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
