import { connection } from "next/server";
import { Fragment, type ReactNode } from "react";
import { listPlans, type PlanRow } from "@/lib/domain/plans";
import { errorFields, log } from "@/lib/log";
import { portalDb } from "@/lib/server/portal-db";
import { ScrollRegion } from "@/components/scroll-region";
import { type Column, DataTable, type TableStyle } from "@/components/ui/data-table";

const fmt = (n: number) => n.toLocaleString("en-US");
const kib = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${fmt(bytes / (1024 * 1024))} MiB` : `${fmt(bytes / 1024)} KiB`;
/** A limits table: always a table (shown from `sm` up, in a region that may scroll), its caption visible. */
const LIMITS: TableStyle = {
  frame: "",
  table: "w-full border-collapse text-left text-sm",
  caption: "mb-2 text-left text-muted",
  thead: "bg-subtle",
  th: "px-3 py-2",
  tbody: "",
  tr: "border-t border-line",
  td: "px-3 py-2",
  stacks: false,
};
export const liveDataLabel = (p: PlanRow) =>
  p.dataEntitlement === "demo" ? "Demo data only" : p.dataEntitlement === "live" ? "Live" : "Delayed 15 minutes";

/** The plan rows from the database, or null when the store cannot be read (the page then says so). */
export async function loadPlans(): Promise<PlanRow[] | null> {
  await connection(); // read at request time: plans are data and change without a deploy
  try {
    return await listPlans(await portalDb());
  } catch (err) {
    log.error("plans could not be read", errorFields(err));
    return null;
  }
}

/** A limit's column: a number right-aligned, or a word. */
const limit = (header: string, cell: (p: PlanRow) => string, numeric = true): Column<PlanRow> =>
  numeric ? { id: header, header, cell, align: "right", className: "tabular-nums" } : { id: header, header, cell };

/** The plan's name cell: its A name, its B name when asked, and a badge on the account's own plan. */
function PlanName({ plan, current, aliases }: { plan: PlanRow; current?: string; aliases?: boolean }) {
  return (
    <>
      {plan.nameA}
      {aliases ? <span className="font-normal text-muted"> ({plan.nameB})</span> : null}
      {plan.id === current ? (
        <span className="ml-2 rounded-full bg-info-soft px-2 py-0.5 text-xs font-semibold text-info">Your plan</span>
      ) : null}
    </>
  );
}

interface LimitsProps {
  label: string;
  caption: ReactNode;
  columns: Column<PlanRow>[];
  plans: PlanRow[];
  current?: string;
  aliases?: boolean;
}

/**
 * One family's limits: from `sm` up a table (a row per plan, a column per limit); on phones, where its columns would
 * not fit, the same figures as one short list per plan, so nothing is cut off at the screen's edge.
 */
function LimitsTable(props: LimitsProps) {
  return (
    <div>
      <ScrollRegion label={props.label} className="hidden overflow-x-auto sm:block">
        <WideTable {...props} />
      </ScrollRegion>
      <NarrowList {...props} />
    </div>
  );
}

function WideTable({ caption, columns, plans, current, aliases }: LimitsProps) {
  const plan: Column<PlanRow> = {
    id: "plan",
    header: "Plan",
    rowHeader: true,
    className: "whitespace-nowrap font-medium",
    cell: (p) => <PlanName plan={p} current={current} aliases={aliases} />,
  };
  return (
    <DataTable caption={caption} tableStyle={LIMITS} columns={[plan, ...columns]} rows={plans} rowKey={(p) => p.id} />
  );
}

function NarrowList({ label, caption, columns, plans, current, aliases }: LimitsProps) {
  return (
    <section aria-label={label} className="space-y-2 text-sm sm:hidden">
      <p className="text-muted">{caption}</p>
      <ul className="divide-y divide-line rounded-lg border border-line bg-surface">
        {plans.map((p) => (
          <li key={p.id} className="px-3 py-2">
            <p className="font-medium">
              <PlanName plan={p} current={current} aliases={aliases} />
            </p>
            <dl className="mt-1 grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-0.5">
              {columns.map((c) => (
                <Fragment key={c.header}>
                  <dt className="text-muted">{c.header}</dt>
                  <dd className={c.align === "right" ? "text-right tabular-nums" : "text-right"}>{c.cell(p)}</dd>
                </Fragment>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `aliases`: also the name family B's documents use for each plan (the reference's limit tables only). */
type TableProps = { plans: PlanRow[]; current?: string; aliases?: boolean };

export function FamilyATable({ plans, current }: TableProps) {
  return (
    <LimitsTable
      label="Family A limits"
      plans={plans}
      current={current}
      caption={
        <>
          Family A limits (<code>/ticker</code>, <code>/signal-score</code>, <code>/options-flow</code>): per minute per
          key; per month per account and environment, shared by its keys. Windows are UTC.
        </>
      }
      columns={[
        limit("Requests per minute", (p) => fmt(p.aPerMinute)),
        limit("Requests per month", (p) => fmt(p.aPerMonth)),
      ]}
    />
  );
}

export function FamilyBTable({ plans, current, aliases }: TableProps) {
  return (
    <LimitsTable
      label="Family B limits"
      plans={plans}
      current={current}
      aliases={aliases}
      caption={
        <>
          Family B limits (<code>/ai</code>, <code>/data</code>, <code>/alerts</code>, <code>/outputs</code>): per
          minute per key; per day per account and environment, shared by its keys. Windows are UTC.
        </>
      }
      columns={[
        limit("Requests per minute", (p) => fmt(p.bPerMinute)),
        limit("Requests per day", (p) => fmt(p.bPerDay)),
        limit("Max request body", (p) => kib(p.bMaxPayloadBytes)),
        limit("Webhooks", (p) => (p.webhooks ? "Yes" : "No"), false),
      ]}
    />
  );
}

export function PlansUnavailable() {
  return (
    <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft p-4 text-bad">
      The plan catalogue cannot be read right now; reload the page in a moment.
    </p>
  );
}

/** Both families' limit tables from the plan rows in the database (read here unless given); `current` marks the account's plan. */
export async function PlanLimitsTable({
  plans: given,
  current,
  aliases,
}: {
  plans?: PlanRow[];
  current?: string;
  aliases?: boolean;
} = {}) {
  const plans = given ?? (await loadPlans());
  if (!plans) return <PlansUnavailable />;
  return (
    <div className="space-y-6" data-testid="plan-limits">
      <FamilyATable plans={plans} current={current} />
      <FamilyBTable plans={plans} current={current} aliases={aliases} />
    </div>
  );
}
