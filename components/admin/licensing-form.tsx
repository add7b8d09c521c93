"use client";

import { type Dispatch, type SetStateAction, useEffect, useId, useState } from "react";
import { ErrorNote } from "@/components/portal/error-note";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/page";
import { choicesOf, fieldAttrs, type FormValues, lengthHint } from "@/lib/contract/field-attrs";
import { licensingChangeBody } from "@/lib/contract/admin-inputs";
import { fieldMessage, SelectField, TextField } from "./fields";
import { useAdminPost } from "./use-admin-post";

type LicensingChangeInput = FormValues<typeof licensingChangeBody>;
const { env: ENV, state: STATE, reason: REASON } = licensingChangeBody.shape;

interface Preview {
  status: number;
  body: unknown;
  summary: string;
}

/** The exact answer callers would get for this endpoint, environment and state (null while it loads). */
function usePreview({ endpointId, env, state }: LicensingChangeInput) {
  const [preview, setPreview] = useState<Preview | null>(null);
  useEffect(() => {
    let live = true;
    // The preview depends on endpoint, environment and state only; the reason is checked when the change is made.
    portalFetch<Preview>("/api/admin/licensing/preview", {
      method: "POST",
      body: { endpointId, env, state, reason: "preview" },
    })
      .then((p) => live && setPreview(p))
      .catch(() => live && setPreview(null));
    return () => {
      live = false;
    };
  }, [endpointId, env, state]);
  return preview;
}

/** Making the change: busy while it is sent, then what was saved or the refusal; a saved change clears the reason. */
function useChange(values: LicensingChangeInput, setValues: Dispatch<SetStateAction<LicensingChangeInput>>) {
  const { busy, error, post } = useAdminPost();
  const [done, setDone] = useState<string | null>(null);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setDone(null);
    await post("/api/admin/licensing", values, () => {
      setDone(
        `Saved: ${values.endpointId} (${values.env}) is now ${values.state}. Every server applies it within 5 s.`,
      );
      setValues((v) => ({ ...v, reason: "" }));
    });
  }
  return { error, done, busy, submit };
}

/** The preview of what callers get: its summary and, when there is one, the answer's status and body. */
function LicensingPreview({ preview }: { preview: Preview | null }) {
  return (
    <div className="space-y-2 text-sm" aria-live="polite">
      <p className="font-medium">Preview of what callers get</p>
      {preview ? (
        <>
          <p className="text-muted">{preview.summary}</p>
          {preview.body ? (
            <pre
              data-testid="licensing-preview"
              className="max-h-72 overflow-y-auto rounded-md bg-code-bg p-3 text-xs break-words whitespace-pre-wrap text-code-fg"
            >
              {`HTTP ${preview.status}\n${JSON.stringify(preview.body, null, 2)}`}
            </pre>
          ) : null}
        </>
      ) : (
        <p className="text-muted">Loading the preview…</p>
      )}
    </div>
  );
}

/** Endpoint, environment, `State` and a required `Reason`; the preview shows the exact answer callers will get. */
export function LicensingForm({ endpoints }: { endpoints: { id: string; label: string }[] }) {
  const id = useId();
  const [values, setValues] = useState<LicensingChangeInput>({
    endpointId: endpoints[0]?.id ?? "",
    env: "live",
    state: "enabled",
    reason: "",
  });
  const preview = usePreview(values);
  const { error, done, busy, submit } = useChange(values, setValues);

  const set = (k: keyof LicensingChangeInput) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [k]: e.target.value }));
  const reasonError = fieldMessage(error, "reason");
  return (
    <Card>
      <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`} className="text-base font-semibold">
          Change a state
        </h2>
        <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
          <SelectField
            id={`${id}-endpoint`}
            label="Endpoint"
            value={values.endpointId}
            onChange={set("endpointId")}
            options={endpoints.map((e) => ({ value: e.id, label: e.label }))}
            error={fieldMessage(error, "endpointId")}
          />
          <SelectField
            id={`${id}-env`}
            label="Environment"
            value={values.env}
            onChange={set("env")}
            options={choicesOf(ENV)}
            error={fieldMessage(error, "env")}
          />
          <SelectField
            id={`${id}-state`}
            label="State"
            value={values.state}
            onChange={set("state")}
            options={choicesOf(STATE)}
            error={fieldMessage(error, "state")}
          />
          <TextField
            id={`${id}-reason`}
            label="Reason"
            className="md:col-span-3"
            {...fieldAttrs(REASON)}
            value={values.reason}
            onChange={set("reason")}
            hint={`Required, ${lengthHint(REASON)}; recorded in the audit log with your e-mail.`}
            error={reasonError}
          />
        </div>
        <LicensingPreview preview={preview} />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="primary" disabled={busy}>
            Change state
          </Button>
          {done ? (
            <p role="status" className="text-sm text-ok">
              {done}
            </p>
          ) : null}
        </div>
        {error && !reasonError ? <ErrorNote error={error} /> : null}
      </form>
    </Card>
  );
}
