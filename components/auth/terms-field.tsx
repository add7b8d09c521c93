/** The terms of use and the box that accepts them, with the portal's message when they were not accepted. */
export function TermsField({ terms, error }: { terms: readonly string[]; error?: string }) {
  return (
    <fieldset className="space-y-2 rounded border border-line p-3">
      <legend className="px-1 text-sm font-medium">Terms of use</legend>
      <ul className="list-disc space-y-1 pl-5 text-sm text-muted">
        {terms.map((t) => (
          <li key={t}>{t}</li>
        ))}
      </ul>
      <div className="flex items-start gap-2">
        <input
          id="acceptTerms"
          name="acceptTerms"
          type="checkbox"
          className="mt-1"
          aria-describedby={error ? "acceptTerms-error" : undefined}
          aria-invalid={error ? true : undefined}
        />
        <label htmlFor="acceptTerms" className="text-sm">
          I accept the terms of use
        </label>
      </div>
      {error ? (
        <p id="acceptTerms-error" className="text-sm text-bad">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
