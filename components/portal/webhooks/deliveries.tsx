"use client";

import type { DeliveryView } from "@/lib/domain/webhook-deliveries";
import { Badge, type Tone } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { DotsIcon } from "@/components/ui/icons";
import { Menu, MenuItem } from "@/components/ui/menu";
import { EmptyState } from "@/components/ui/empty-state";
import { actionsColumn, type Column, DataTable } from "@/components/ui/data-table";
import { Truncate } from "@/components/ui/truncate";
import { utcMinute } from "../format";

/** What an attempt got back, in words: the status code, or why there was none. */
export const attemptResult = (a: DeliveryView["attempts"][number]) =>
  a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "no answer");

/** A delivery's state as the user sees it: a pending delivery whose attempts failed is failing, with the reason. */
export function deliveryState(d: DeliveryView): { label: string; tone: Tone; reason: string | null } {
  const last = d.attempts.at(-1);
  const reason = last && d.status !== "succeeded" ? attemptResult(last) : null;
  if (d.status === "succeeded") return { label: "succeeded", tone: "ok", reason: null };
  if (d.status === "failed") return { label: "failed", tone: "bad", reason };
  if (d.status === "cancelled") return { label: "cancelled", tone: "neutral", reason: null };
  if (d.attempts.length > 0) return { label: `failed ${d.attempts.length}×, retrying`, tone: "bad", reason };
  return { label: "pending", tone: "info", reason: null };
}

function Attempts({ d }: { d: DeliveryView }) {
  if (d.attempts.length === 0) return <span className="text-xs text-muted">none yet</span>;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer">
        {d.attempts.length} attempt{d.attempts.length === 1 ? "" : "s"}
      </summary>
      <ol className="mt-1 space-y-1">
        {d.attempts.map((a, i) => (
          <li key={i} data-testid="attempt" className="min-w-0">
            <span className="tabular-nums">{a.attemptedAt.slice(0, 19).replace("T", " ")}</span> ·{" "}
            <span className={a.statusCode && a.statusCode < 300 ? "text-ok" : "text-bad"}>{attemptResult(a)}</span> ·{" "}
            {a.latencyMs} ms
            {a.responseExcerpt ? (
              <span className="block truncate font-mono text-muted" title={a.responseExcerpt}>
                {a.responseExcerpt}
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

function DeliveryStatus({ d }: { d: DeliveryView }) {
  const s = deliveryState(d);
  return (
    <>
      <Badge tone={s.tone}>{s.label}</Badge>
      {s.reason ? <span className="mt-0.5 block truncate text-xs text-bad">{s.reason}</span> : null}
      {d.nextAttemptAt ? <span className="block text-xs text-muted">next try {utcMinute(d.nextAttemptAt)}</span> : null}
    </>
  );
}

function RowMenu({
  d,
  replaying,
  onReplay,
}: {
  d: DeliveryView;
  replaying: boolean;
  onReplay: (eventId: string) => void;
}) {
  return (
    <Menu
      trigger={
        <button
          type="button"
          className={buttonClass("ghost", "sm")}
          disabled={replaying}
          aria-label={`Actions for event ${d.eventId}`}
        >
          <DotsIcon />
        </button>
      }
    >
      <MenuItem onSelect={() => onReplay(d.eventId)}>Replay this event</MenuItem>
      <MenuItem onSelect={() => void navigator.clipboard?.writeText(d.eventId)}>Copy event id</MenuItem>
    </Menu>
  );
}

interface DeliveryActions {
  canManage: boolean;
  replaying: boolean;
  onReplay: (eventId: string) => void;
}

const deliveryColumns = ({ canManage, replaying, onReplay }: DeliveryActions): Column<DeliveryView>[] => [
  {
    id: "event",
    header: "Event",
    label: false,
    className: "min-w-0",
    cell: (d) => (
      <>
        <span className="flex min-w-0 items-baseline gap-2">
          <Truncate text={d.eventType} min={22} className="font-mono text-xs" />
          {d.symbol ? <span className="shrink-0 text-xs text-muted">{d.symbol}</span> : null}
        </span>
        <span className="block truncate font-mono text-xs text-muted" title={d.eventId}>
          {d.eventId}
        </span>
      </>
    ),
  },
  { id: "status", header: "Status", width: "w-48", className: "min-w-0", cell: (d) => <DeliveryStatus d={d} /> },
  { id: "attempts", header: "Attempts", width: "w-64", className: "min-w-0", cell: (d) => <Attempts d={d} /> },
  {
    id: "created",
    header: "Created (UTC)",
    label: "Created",
    width: "w-44",
    className: "text-xs text-muted tabular-nums",
    cell: (d) => utcMinute(d.createdAt),
  },
  actionsColumn((d) => <RowMenu d={d} replaying={replaying} onReplay={onReplay} />, { width: "w-16", when: canManage }),
];

/** One webhook's recent deliveries, each with its attempts, and a row menu (replay the event, copy its id). */
export function Deliveries({ deliveries, ...actions }: { deliveries: DeliveryView[] } & DeliveryActions) {
  return (
    <DataTable
      ariaLabel="Deliveries"
      columns={deliveryColumns(actions)}
      rows={deliveries}
      rowKey={(d) => d.deliveryId}
      rowData={() => ({ "data-testid": "delivery" })}
      empty={
        <EmptyState title="No deliveries yet">
          Use <strong>Send test event</strong> to check that your endpoint answers 2xx and verifies the signature.
        </EmptyState>
      }
    />
  );
}
