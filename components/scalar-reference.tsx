"use client";

import Script from "next/script";
import { useCallback, useEffect, useRef, useState } from "react";

declare global {
  interface Window {
    Scalar?: { createApiReference: (target: Element, config: Record<string, unknown>) => { destroy?: () => void } };
  }
}

/** Colours Scalar 1.72's light theme draws below 4.5:1 contrast (and red inside its dark code cards), darkened; one layout fix. */
const CONTRAST_CSS = `
.light-mode { --scalar-color-2: #52525b !important; --scalar-color-3: #52525b !important; --scalar-color-blue: #1d4ed8 !important;
  --scalar-color-green: #166534 !important; --scalar-color-red: #991b1b !important; --scalar-color-orange: #9a3412 !important;
  --scalar-color-yellow: #854d0e !important; --scalar-color-purple: #6b21a8 !important; }
.light-mode .dark-mode, .dark-mode { --scalar-color-red: #ff8080 !important; }
.scalar-app { --scalar-font: ui-sans-serif, system-ui, sans-serif; --scalar-font-code: ui-monospace, monospace; }
/* Scalar's webhook sections do not shrink below their title's width: let them wrap at 375 px instead of scrolling the page. */
.scalar-app .operation-layout > * { min-width: 0; }`;

/** Everything Scalar would fetch from its own hosts is off: no fonts, telemetry, proxy, client or agent. */
const CONFIG = {
  url: "/api/v1/openapi.json",
  layout: "modern",
  theme: "default",
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  hideDarkModeToggle: true,
  forceDarkModeState: "light",
  showDeveloperTools: "never",
  showSidebar: false,
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

/** The OpenAPI document rendered by Scalar's browser bundle, served by this app (app/docs/scalar.js). */
export function ScalarReference() {
  const target = useRef<HTMLDivElement>(null);
  const observer = useRef<MutationObserver | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const mount = useCallback(() => {
    if (!target.current || !window.Scalar) return setState("error");
    try {
      target.current.replaceChildren();
      observer.current?.disconnect();
      observer.current = patchAccessibility(target.current);
      window.Scalar.createApiReference(target.current, CONFIG);
      setState("ready");
    } catch {
      setState("error");
    }
  }, []);
  useEffect(() => {
    if (window.Scalar) mount(); // script already loaded by an earlier visit in this session
    return () => observer.current?.disconnect();
  }, [mount]);
  return (
    <div className="space-y-3">
      {state === "loading" && (
        <p role="status" className="text-muted">
          Loading the API reference…
        </p>
      )}
      {state === "error" && (
        <div role="alert" className="rounded-md border border-bad/40 bg-bad-soft p-4 text-bad">
          The API reference could not be loaded. The raw document is at{" "}
          <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </div>
      )}
      <div ref={target} data-testid="scalar-reference" />
      <Script src="/docs/scalar.js" strategy="afterInteractive" onReady={mount} onError={() => setState("error")} />
    </div>
  );
}
