import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { SiteHeader } from "@/components/site-header";
import { DISCLAIMER } from "@/lib/contract/disclaimer";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Options Research API", template: "%s · Options Research API" },
  description:
    "Derived options-market analytics over an HTTPS JSON API: research summaries, signal scores, options flow, no-trade analysis.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // next-themes sets the theme class before first paint with an inline script: it needs the request's CSP nonce.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The theme class is set on <html> before React hydrates: expected, not a mismatch.
    <html lang="en" suppressHydrationWarning>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="fixed top-2 left-2 z-50 -translate-y-[200%] rounded-md bg-surface px-3 py-2 font-medium text-link shadow-lg focus:translate-y-0"
        >
          Skip to content
        </a>
        <Providers nonce={nonce}>
          <SiteHeader />
          <main id="main" tabIndex={-1} className="flex w-full min-w-0 flex-1 flex-col focus:outline-none">
            {children}
          </main>
          <footer className="border-t border-line bg-subtle">
            <div className="flex flex-col gap-1 px-4 py-4 text-xs text-muted sm:px-6">
              <p>{DISCLAIMER}</p>
              <p>Options Research API · derived analytics, not quotes.</p>
            </div>
          </footer>
        </Providers>
      </body>
    </html>
  );
}
