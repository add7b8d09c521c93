"use client";

import type { PlaygroundField } from "@/lib/portal/playground-operations";
import { cx } from "@/components/ui/cx";

const input = "h-9 w-full rounded-md border border-line-strong bg-surface px-2 text-sm";

type FieldProps = {
  field: PlaygroundField;
  value: string | string[];
  onChange: (v: string | string[]) => void;
};

/** The parameter's name, where it goes, and whether it is required or a list. */
function FieldLabel({ field }: { field: PlaygroundField }) {
  return (
    <>
      <code className="bg-transparent p-0 text-fg">{field.name}</code>{" "}
      <span className="text-xs font-normal text-muted">
        ({field.in}
        {field.required ? ", required" : ""}
        {field.kind.endsWith("list") && field.kind !== "enum-list" ? ", comma-separated" : ""})
      </span>
    </>
  );
}

/** The parameter's description (clamped, in full on hover), when it has one. */
function FieldDescription({ field, help }: { field: PlaygroundField; help: string | undefined }) {
  return (
    field.description && (
      <p id={help} className="line-clamp-3 text-xs text-muted" title={field.description}>
        {field.description}
      </p>
    )
  );
}

/** A list of allowed values, as checkboxes. */
function EnumListField({ field, value, onChange, help }: FieldProps & { help: string | undefined }) {
  const chosen = Array.isArray(value) ? value : [];
  return (
    <fieldset className="space-y-1" aria-describedby={help}>
      <legend className="text-sm font-medium">
        <FieldLabel field={field} />
      </legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {(field.options ?? []).map((o) => (
          <label key={o} className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={chosen.includes(o)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))}
            />
            {o}
          </label>
        ))}
      </div>
      <FieldDescription field={field} help={help} />
    </fieldset>
  );
}

/** The strikes listed for the chosen expiry, each toggling itself in the comma-separated `text` (kept sorted). */
function StrikeChips({ chips, text, onChange }: { chips: number[]; text: string; onChange: (v: string) => void }) {
  const picked = new Set(
    text
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const toggle = (strike: number) => {
    const next = new Set(picked);
    const key = String(strike);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    onChange(
      [...next]
        .map(Number)
        .sort((a, b) => a - b)
        .join(","),
    );
  };
  return (
    <fieldset>
      <legend className="sr-only">Strikes listed for this expiry</legend>
      <div className="flex max-h-24 flex-wrap gap-1 overflow-y-auto py-1">
        {chips.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={picked.has(String(s))}
            onClick={() => toggle(s)}
            className="rounded-full border border-line-strong px-2 py-0.5 font-mono text-xs hover:bg-hover aria-pressed:border-accent aria-pressed:bg-accent aria-pressed:text-accent-fg"
          >
            {s}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** One form control generated from an OpenAPI parameter or body property; `suggestions` and `chips` come from the discovery routes. */
export function ParamField({
  field,
  value,
  onChange,
  suggestions,
  chips,
}: FieldProps & {
  suggestions?: { value: string; label?: string }[];
  chips?: number[];
}) {
  const id = `pg-${field.in}-${field.name}`;
  const help = field.description ? `${id}-help` : undefined;
  if (field.kind === "enum-list") return <EnumListField field={field} value={value} onChange={onChange} help={help} />;
  const options = field.options ?? [];
  const text = typeof value === "string" ? value : "";
  const listId = suggestions?.length ? `${id}-list` : undefined;
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        <FieldLabel field={field} />
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
          {options.map((o) => (
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
          list={listId}
          autoComplete="off"
          inputMode={field.kind === "number" || field.kind === "integer" ? "decimal" : undefined}
          className={cx(input, "font-mono")}
        />
      )}
      {listId ? (
        <datalist id={listId}>
          {suggestions?.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </datalist>
      ) : null}
      {chips?.length ? <StrikeChips chips={chips} text={text} onChange={onChange} /> : null}
      <FieldDescription field={field} help={help} />
    </div>
  );
}
