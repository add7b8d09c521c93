"use client";

import * as Tabs from "@radix-ui/react-tabs";
import { useEffect, useState } from "react";
import { cx } from "./cx";

export type CodeLanguage = "curl" | "typescript" | "python";

const LANGUAGES: { id: CodeLanguage; label: string; code: string }[] = [
  { id: "curl", label: "curl", code: "curl command" },
  { id: "typescript", label: "TypeScript", code: "TypeScript code" },
  { id: "python", label: "Python", code: "Python code" },
];
const STORED = "code-language"; // the reader's last choice, shared by every code block of the portal

/**
 * The same call in curl, TypeScript and Python on Radix Tabs (arrow keys move between tabs), each with a copy button.
 * The chosen language is remembered in this browser.
 */
export function CodeTabs({
  label,
  samples,
  className,
}: {
  label: string;
  samples: Record<CodeLanguage, string>;
  className?: string;
}) {
  const [language, setLanguage] = useState<CodeLanguage>("curl");
  const [copied, setCopied] = useState("");
  useEffect(() => {
    const saved = window.localStorage.getItem(STORED);
    if (LANGUAGES.some((l) => l.id === saved)) setLanguage(saved as CodeLanguage);
  }, []);
  const choose = (value: string) => {
    setLanguage(value as CodeLanguage);
    setCopied("");
    window.localStorage.setItem(STORED, value);
  };
  const copy = async (l: (typeof LANGUAGES)[number]) => {
    try {
      await navigator.clipboard.writeText(samples[l.id]);
      setCopied(`Copied the ${l.label} code.`);
    } catch {
      setCopied("Copying is blocked here: select the code and copy it by hand.");
    }
  };
  return (
    <Tabs.Root value={language} onValueChange={choose} className={cx("min-w-0 space-y-2", className)}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Tabs.List aria-label={label} className="inline-flex rounded-md border border-line bg-subtle p-0.5">
          {LANGUAGES.map((l) => (
            <Tabs.Trigger
              key={l.id}
              value={l.id}
              className="rounded px-3 py-1 text-sm font-medium text-muted data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-sm"
            >
              {l.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <span role="status" className="text-xs text-muted">
          {copied}
        </span>
      </div>
      {LANGUAGES.map((l) => (
        <Tabs.Content key={l.id} value={l.id} className="space-y-2">
          <pre
            aria-label={l.code}
            className="rounded-md bg-code-bg p-4 text-xs whitespace-pre-wrap text-code-fg [overflow-wrap:anywhere]"
          >
            <code>{samples[l.id]}</code>
          </pre>
          <button
            type="button"
            onClick={() => copy(l)}
            className="rounded-md border border-line-strong bg-surface px-2.5 py-1 text-sm font-medium hover:bg-hover"
          >
            Copy {l.label}
          </button>
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
