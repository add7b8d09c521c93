import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { cx } from "@/components/ui/cx";
import { RequiredMark } from "@/components/ui/required-mark";
import { plainMessage } from "@/components/portal/portal-fetch";

/** The portal's form control look (components/auth/field.tsx), for admin forms that repeat per row and need own ids. */
export const control =
  "block w-full rounded-md border border-line-strong bg-surface px-3 py-1.5 text-sm text-fg placeholder:text-muted";

interface FieldProps {
  id: string;
  label: ReactNode;
  /** Marks the label "(required)"; the control itself gets `required` from its own props. */
  required?: boolean;
  hint?: string;
  error?: string;
  className?: string;
}

function Frame({ id, label, hint, error, className, required, children }: FieldProps & { children: ReactNode }) {
  return (
    <div className={cx("min-w-0 space-y-1", className)}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-bad">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const described = (id: string, hint?: string, error?: string) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

export function TextField({
  id,
  label,
  hint,
  error,
  className,
  ...input
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "className">) {
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className} required={input.required}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, hint, error)}
        className={control}
        {...input}
      />
    </Frame>
  );
}

export function SelectField({
  id,
  label,
  hint,
  error,
  className,
  options,
  ...select
}: FieldProps & { options: readonly string[] | readonly { value: string; label: string }[] } & Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    "id" | "className"
  >) {
  return (
    <Frame id={id} label={label} hint={hint} error={error} className={className} required={select.required}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described(id, hint, error)}
        className={control}
        {...select}
      >
        {options.map((o) => {
          const { value, label: text } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </Frame>
  );
}

/** The message of a refused call that names `field` (the portal's {code, message, field}). */
export function fieldMessage(error: unknown, field: string): string | undefined {
  const e = error as { field?: unknown; message?: unknown } | null;
  return e && e.field === field && typeof e.message === "string" ? plainMessage(e.message, field) : undefined;
}
