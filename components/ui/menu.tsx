"use client";

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";
import { cx } from "./cx";

/** A drop-down menu (arrow keys, type-ahead, Escape) on Radix; `trigger` is the button that opens it. */
export function Menu({
  trigger,
  children,
  align = "end",
}: {
  trigger: ReactNode;
  children: ReactNode;
  align?: "start" | "end";
}) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align={align}
          sideOffset={6}
          className="z-50 min-w-44 rounded-lg border border-line bg-surface p-1 text-sm text-fg shadow-xl"
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

const item =
  "flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-1.5 outline-none select-none data-[highlighted]:bg-hover data-[disabled]:opacity-50";

export function MenuItem({
  onSelect,
  children,
  danger,
  disabled,
}: {
  onSelect: () => void;
  children: ReactNode;
  danger?: boolean;
  disabled?: boolean;
}) {
  return (
    <DropdownMenu.Item onSelect={onSelect} disabled={disabled} className={cx(item, danger && "text-bad")}>
      {children}
    </DropdownMenu.Item>
  );
}

export function MenuLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <DropdownMenu.Item asChild className={cx(item, "text-fg no-underline hover:no-underline")}>
      <a href={href}>{children}</a>
    </DropdownMenu.Item>
  );
}

export function MenuRadio({
  value,
  onValueChange,
  options,
  label,
}: {
  value: string;
  onValueChange: (v: string) => void;
  options: { value: string; label: string }[];
  label: string;
}) {
  return (
    <DropdownMenu.RadioGroup value={value} onValueChange={onValueChange} aria-label={label}>
      {options.map((o) => (
        <DropdownMenu.RadioItem key={o.value} value={o.value} className={cx(item, "pl-7 relative")}>
          <DropdownMenu.ItemIndicator className="absolute left-2.5">✓</DropdownMenu.ItemIndicator>
          {o.label}
        </DropdownMenu.RadioItem>
      ))}
    </DropdownMenu.RadioGroup>
  );
}

export const MenuSeparator = () => <DropdownMenu.Separator className="my-1 h-px bg-line" />;
export const MenuLabel = ({ children }: { children: ReactNode }) => (
  <DropdownMenu.Label className="truncate px-2.5 py-1.5 text-xs text-muted">{children}</DropdownMenu.Label>
);
