"use client";

import * as Tooltip from "@radix-ui/react-tooltip";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ThemeProvider } from "next-themes";
import { useState, type ReactNode } from "react";

/**
 * Theme (system setting by default, the `dark` class set before first paint by next-themes' script, which carries the
 * page's CSP nonce), one QueryClient per browser session (created lazily so server renders never share state), tooltips.
 */
export function Providers({ children, nonce }: { children: ReactNode; nonce?: string }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 60_000, retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  return (
    <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce}>
      <QueryClientProvider client={client}>
        <Tooltip.Provider delayDuration={200}>{children}</Tooltip.Provider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
