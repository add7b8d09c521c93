import type { InputHTMLAttributes } from "react";
import { RequiredMark } from "@/components/ui/required-mark";

/** A labelled input with its error announced to assistive technology. */
export function Field({
  label,
  name,
  error,
  hint,
  ...input
}: { label: string; name: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy =
    [hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={name} className="block text-sm font-medium text-fg">
        {label}
        {input.required ? <RequiredMark /> : null}
      </label>
      <input
        id={name}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="block w-full rounded border border-line-strong px-3 py-2 text-fg focus-visible:outline focus-visible:outline-2 focus-visible:outline-focus"
        {...input}
      />
      {hint ? (
        <p id={`${name}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${name}-error`} className="text-sm text-bad">
          {error}
        </p>
      ) : null}
    </div>
  );
}
