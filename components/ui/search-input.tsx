import type { InputHTMLAttributes } from "react";
import { cx } from "./cx";
import { SearchIcon } from "./icons";

/** A search box with its magnifier; the caller gives it an id and a label. */
export function SearchInput({ className, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <div className="relative">
      <SearchIcon className="pointer-events-none absolute top-2.5 left-2.5 text-muted" />
      <input
        type="search"
        className={cx("h-9 w-full rounded-md border border-line-strong bg-surface pr-2 pl-8 text-sm", className)}
        {...props}
      />
    </div>
  );
}
