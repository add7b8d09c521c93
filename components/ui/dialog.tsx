"use client";

import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { cx } from "./cx";

const overlay = "fixed inset-0 z-40 bg-black/50 data-[state=open]:animate-in";

/** A centred modal (focus trapped and restored, Escape closes) on Radix Dialog. */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100vh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 space-y-4 overflow-y-auto rounded-xl border border-line bg-surface p-5 text-fg shadow-2xl"
        >
          <RadixDialog.Title className="text-base font-semibold [overflow-wrap:anywhere] sm:text-lg">
            {title}
          </RadixDialog.Title>
          {description ? <div className="text-sm text-muted">{description}</div> : null}
          {children}
          {footer ? <div className="flex flex-wrap justify-end gap-2 pt-1">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A panel sliding in from the right (full width on phones): details and secondary forms, on Radix Dialog. */
export function Drawer({
  open,
  onOpenChange,
  title,
  children,
  wide = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content
          aria-describedby={undefined}
          className={cx(
            "fixed inset-y-0 right-0 z-50 flex w-full flex-col border-l border-line bg-surface text-fg shadow-2xl",
            wide ? "sm:max-w-2xl" : "sm:max-w-lg",
          )}
        >
          <div className="flex h-14 shrink-0 items-center justify-between gap-3 border-b border-line px-5">
            <RadixDialog.Title className="truncate text-base font-semibold">{title}</RadixDialog.Title>
            <RadixDialog.Close className="rounded-md px-2 py-1 text-sm text-muted hover:bg-hover hover:text-fg">
              Close
            </RadixDialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-5">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
