"use client";

import type { FormEvent, ReactNode } from "react";
import type { UsageEndpoint, UsageKey } from "@/lib/shared/usage-types";
import { Button } from "@/components/ui/button";

export interface Filters {
  key: string;
  route: string;
  status: string;
  errorCode: string;
  symbol: string;
  from: string;
  to: string;
}
export const EMPTY: Filters = { key: "", route: "", status: "", errorCode: "", symbol: "", from: "", to: "" };
/** Status codes the API answers, offered beside the classes. */
const STATUS_CODES = ["200", "201", "204", "400", "401", "403", "404", "405", "409", "413", "422", "500", "503"];
const input = "h-9 w-full rounded-md border border-line-strong bg-surface px-2 text-sm";

function Filter({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-muted">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A select of one filter; its first option, `all`, leaves the filter out. */
function SelectFilter({
  id,
  label,
  value,
  onChange,
  all,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  all: string;
  children: ReactNode;
}) {
  return (
    <Filter id={id} label={label}>
      <select id={id} value={value} onChange={onChange} className={input}>
        <option value="">{all}</option>
        {children}
      </select>
    </Filter>
  );
}

const FilterHint = () => (
  <p className="text-xs text-muted sm:col-span-2 lg:col-span-4">
    Without a range: the last 7 days (31 for a request id). A range spans at most 31 days. Symbol finds the calls that
    name it in their path or in <code>symbol</code>/<code>symbols</code>.
  </p>
);

const options = (values: readonly (readonly [string, string])[]) =>
  values.map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
const same = (values: readonly string[]) => values.map((v) => [v, v] as const);

/** The request log's filters: key, route, status (class or code), error code, symbol and time range; applied together. */
export function RequestLogFilters({
  draft,
  onChange,
  onApply,
  onClear,
  keys,
  endpoints,
  statusClasses,
  errorCodes,
}: {
  draft: Filters;
  onChange: (f: Filters) => void;
  onApply: () => void;
  onClear: () => void;
  keys: UsageKey[];
  endpoints: UsageEndpoint[];
  statusClasses: readonly string[];
  errorCodes: readonly string[];
}) {
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => onChange({ ...draft, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply();
  };
  return (
    <form
      onSubmit={submit}
      className="grid gap-3 rounded-lg border border-line bg-subtle p-3 sm:grid-cols-2 lg:grid-cols-4"
      aria-label="Request log filters"
    >
      <SelectFilter id="log-key" label="Key" value={draft.key} onChange={set("key")} all="All keys">
        {options(keys.map((k) => [k.id, `${k.name} (${k.prefix}…)`] as const))}
      </SelectFilter>
      <SelectFilter id="log-route" label="Route" value={draft.route} onChange={set("route")} all="All routes">
        {options(same(endpoints.map((e) => e.id)))}
      </SelectFilter>
      <SelectFilter id="log-status" label="Status" value={draft.status} onChange={set("status")} all="All statuses">
        <optgroup label="Classes">
          {options(statusClasses.map((s) => [s, s === "4xx" ? "4xx (without 429)" : s] as const))}
        </optgroup>
        <optgroup label="Codes">{options(same(STATUS_CODES))}</optgroup>
      </SelectFilter>
      <SelectFilter
        id="log-error-code"
        label="Error code"
        value={draft.errorCode}
        onChange={set("errorCode")}
        all="Any error code"
      >
        {options(same(errorCodes))}
      </SelectFilter>
      <Filter id="log-symbol" label="Symbol">
        <input
          id="log-symbol"
          value={draft.symbol}
          onChange={set("symbol")}
          placeholder="e.g. AAPL"
          maxLength={16}
          autoCapitalize="characters"
          spellCheck={false}
          className={input}
        />
      </Filter>
      <Filter id="log-from" label="From (your local time)">
        <input id="log-from" type="datetime-local" value={draft.from} onChange={set("from")} className={input} />
      </Filter>
      <Filter id="log-to" label="To (your local time)">
        <input id="log-to" type="datetime-local" value={draft.to} onChange={set("to")} className={input} />
      </Filter>
      <div className="flex items-end gap-2">
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        <Button onClick={onClear}>Clear</Button>
      </div>
      <FilterHint />
    </form>
  );
}
