import type { Metadata } from "next";
import type { ReactNode } from "react";
import { DisclaimerNote } from "@/components/disclaimer-note";
import { Providers } from "@/components/providers";
import { SiteHeader } from "@/components/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Options Research API", template: "%s · Options Research API" },
  description:
    "Derived options-market analytics over an HTTPS JSON API: research summaries, signal scores, options flow, no-trade analysis.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="fixed left-2 top-2 z-50 -translate-y-[200%] rounded bg-white px-3 py-2 font-medium text-blue-800 shadow-lg focus:translate-y-0"
        >
          Skip to content
        </a>
        <SiteHeader />
        <Providers>
          <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 focus:outline-none">
            {children}
          </main>
        </Providers>
        <footer className="border-t border-slate-200 bg-slate-50">
          <div className="mx-auto max-w-5xl space-y-2 px-4 py-6">
            <DisclaimerNote compact />
            <p className="text-xs text-slate-600">Options Research API · derived analytics, not quotes.</p>
          </div>
        </footer>
      </body>
    </html>
  );
}
