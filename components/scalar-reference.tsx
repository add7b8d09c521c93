"use client";

import Script from "next/script";
import { useTheme } from "next-themes";
import { useCallback, useEffect, useRef, useState } from "react";

declare global {
  interface Window {
    Scalar?: { createApiReference: (target: Element, config: Record<string, unknown>) => { destroy?: () => void } };
  }
}

/**
 * Colours Scalar 1.72 draws below 4.5:1 contrast, changed: its light theme's (darkened), red inside its dark code cards
 * and the dark theme's third text colour (search placeholder, client library tabs: #797979 on #0f0f0f), lightened; one
 * layout fix.
 */
const CONTRAST_CSS = `
.light-mode { --scalar-color-2: #52525b !important; --scalar-color-3: #52525b !important; --scalar-color-blue: #1d4ed8 !important;
  --scalar-color-green: #166534 !important; --scalar-color-red: #991b1b !important; --scalar-color-orange: #9a3412 !important;
  --scalar-color-yellow: #854d0e !important; --scalar-color-purple: #6b21a8 !important; }
.light-mode .dark-mode, .dark-mode { --scalar-color-red: #ff8080 !important; --scalar-color-3: #9a9a9a !important; }
.scalar-app { --scalar-font: ui-sans-serif, system-ui, sans-serif; --scalar-font-code: ui-monospace, monospace;
  --scalar-custom-header-height: 3.5rem; }
/* Scalar's webhook sections do not shrink below their title's width: let them wrap at 375 px instead of scrolling the page. */
.scalar-app .operation-layout > * { min-width: 0; }`;

/** Everything Scalar would fetch from its own hosts is off: no fonts, telemetry, proxy, client or agent. */
const CONFIG = {
  url: "/docs/openapi.json", // the API's document with our clients' code samples (app/docs/openapi.json)
  layout: "modern",
  theme: "default",
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  hideDarkModeToggle: true,
  showDeveloperTools: "never",
  showSidebar: true,
  hideModels: true,
  defaultOpenAllTags: true,
  mcp: { disabled: true },
  agent: { disabled: true },
  customCss: CONTRAST_CSS,
};

/** Scalar 1.72 renders icon-only copy buttons without a name and scrollable endpoint lists that a keyboard cannot reach. */
function patchAccessibility(root: HTMLElement): MutationObserver {
  const patch = () => {
    for (const b of root.querySelectorAll("button.scalar-code-copy:not([aria-label])"))
      b.setAttribute("aria-label", "Copy code");
    for (const u of root.querySelectorAll("ul.endpoints:not([tabindex])")) u.setAttribute("tabindex", "0");
  };
  const observer = new MutationObserver(patch);
  observer.observe(root, { subtree: true, childList: true });
  return observer;
}

/** The OpenAPI document rendered by Scalar's browser bundle, served by this app (app/docs/scalar.js), in the page's theme. */
export function ScalarReference() {
  const { resolvedTheme } = useTheme();
  const mode = resolvedTheme === "dark" ? "dark" : "light";
  const target = useRef<HTMLDivElement>(null);
  const observer = useRef<MutationObserver | null>(null);
  const app = useRef<{ destroy?: () => void } | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const mount = useCallback(() => {
    if (!target.current || !window.Scalar) return setState("error");
    try {
      app.current?.destroy?.();
      target.current.replaceChildren();
      observer.current?.disconnect();
      observer.current = patchAccessibility(target.current);
      app.current = window.Scalar.createApiReference(target.current, { ...CONFIG, forceDarkModeState: mode });
      setState("ready");
    } catch {
      setState("error");
    }
  }, [mode]);
  useEffect(() => {
    if (window.Scalar) mount(); // loaded by an earlier visit in this session, or the theme changed
    return () => observer.current?.disconnect();
  }, [mount]);
  return (
    <div className="min-w-0">
      {state === "loading" && (
        <p role="status" className="px-4 py-6 text-muted sm:px-6">
          Loading the API reference…
        </p>
      )}
      {state === "error" && (
        <div role="alert" className="mx-4 rounded-md border border-bad/40 bg-bad-soft p-4 text-bad sm:mx-6">
          The API reference could not be loaded. The raw document is at{" "}
          <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </div>
      )}
      {/* Scalar's mobile header is a few pixels wider than a phone screen: kept inside its box. */}
      <div ref={target} data-testid="scalar-reference" className="overflow-x-clip" />
      <Script src="/docs/scalar.js" strategy="afterInteractive" onReady={mount} onError={() => setState("error")} />
    </div>
  );
}
