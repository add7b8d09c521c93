"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui/cx";
import { useCurrentTabInView } from "@/components/ui/current-tab";
import { GUIDES } from "./guides";

/** The docs' one navigation: the reference and every guide, as a row of tabs under the top bar (current tab in view). */
export function DocsNav() {
  const path = usePathname();
  const row = useCurrentTabInView<HTMLUListElement>(path);
  const items = [
    { href: "/docs", title: "API reference" },
    ...GUIDES.map((g) => ({ href: `/docs/guides/${g.slug}`, title: g.title })),
  ];
  return (
    <nav aria-label="Guides" className="border-b border-line bg-canvas">
      <ul ref={row} className="flex gap-1 overflow-x-auto px-4 py-1.5 [scrollbar-width:none] sm:px-6">
        {items.map((i) => (
          <li key={i.href} className="shrink-0">
            <Link
              href={i.href}
              aria-current={path === i.href ? "page" : undefined}
              className={cx(
                "block rounded-md px-3 py-1.5 text-sm whitespace-nowrap no-underline hover:no-underline",
                path === i.href ? "bg-accent-soft font-medium text-fg" : "text-muted hover:bg-hover hover:text-fg",
              )}
            >
              {i.title}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
