"use client";

import type { PlaygroundField } from "@/lib/portal/playground-operations";

const input = "w-full rounded border border-line-strong px-2 py-1";

/** One form control generated from an OpenAPI parameter or body property. */
export function ParamField({
  field,
  value,
  onChange,
}: {
  field: PlaygroundField;
  value: string | string[];
  onChange: (v: string | string[]) => void;
}) {
  const id = `pg-${field.in}-${field.name}`;
  const help = field.description ? `${id}-help` : undefined;
  const label = (
    <>
      <code>{field.name}</code>{" "}
      <span className="text-xs font-normal text-muted">
        ({field.in}
        {field.required ? ", required" : ""}
        {field.kind.endsWith("list") && field.kind !== "enum-list" ? ", comma-separated" : ""})
      </span>
    </>
  );
  const description = field.description && (
    <p id={help} className="text-xs text-muted">
      {field.description}
    </p>
  );
  if (field.kind === "enum-list") {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="space-y-1" aria-describedby={help}>
        <legend className="text-sm font-medium">{label}</legend>
        <div className="flex flex-wrap gap-3">
          {field.options!.map((o) => (
            <label key={o} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={chosen.includes(o)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))}
              />
              {o}
            </label>
          ))}
        </div>
        {description}
      </fieldset>
    );
  }
  const text = typeof value === "string" ? value : "";
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {field.kind === "enum" ? (
        <select
          id={id}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={help}
          className={input}
        >
          {!field.required && <option value="">(not set)</option>}
          {field.options!.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={help}
          required={field.required}
          inputMode={field.kind === "number" || field.kind === "integer" ? "decimal" : undefined}
          className={input}
        />
      )}
      {description}
    </div>
  );
}
