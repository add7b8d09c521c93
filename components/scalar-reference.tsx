"use client";

import Script from "next/script";
import { useCallback, useEffect, useRef, useState } from "react";

declare global {
  interface Window {
    Scalar?: { createApiReference: (target: Element, config: Record<string, unknown>) => { destroy?: () => void } };
  }
}

/** Everything Scalar would fetch from its own hosts is off: no fonts, telemetry, proxy, client or agent. */
const CONFIG = {
  url: "/api/v1/openapi.json",
  layout: "classic",
  theme: "default",
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  hideDarkModeToggle: true,
  forceDarkModeState: "light",
  showDeveloperTools: "never",
  showSidebar: false,
  mcp: { disabled: true },
  agent: { disabled: true },
  defaultOpenAllTags: true,
  customCss: ".scalar-app { --scalar-font: ui-sans-serif, system-ui, sans-serif; --scalar-font-code: ui-monospace, monospace; }",
};

/** The OpenAPI document rendered by Scalar's browser bundle, served by this app (app/docs/scalar.js). */
export function ScalarReference() {
  const target = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const mount = useCallback(() => {
    if (!target.current || !window.Scalar) return setState("error");
    try {
      target.current.replaceChildren();
      window.Scalar.createApiReference(target.current, CONFIG);
      setState("ready");
    } catch {
      setState("error");
    }
  }, []);
  useEffect(() => {
    if (window.Scalar) mount(); // script already loaded by an earlier visit in this session
  }, [mount]);
  return (
    <div className="space-y-3">
      {state === "loading" && <p role="status" className="text-slate-700">Loading the API reference…</p>}
      {state === "error" && (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
          The API reference could not be loaded. The raw document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </div>
      )}
      <div ref={target} data-testid="scalar-reference" />
      <Script src="/docs/scalar.js" strategy="afterInteractive" onReady={mount} onError={() => setState("error")} />
    </div>
  );
}
