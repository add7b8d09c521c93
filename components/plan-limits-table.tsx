import { connection } from "next/server";
import { Fragment, type ReactNode } from "react";
import { listPlans, type PlanRow } from "@/lib/domain/plans";
import { errorFields, log } from "@/lib/log";
import { portalDb } from "@/lib/server/portal-db";
import { ScrollRegion } from "@/components/scroll-region";

const fmt = (n: number) => n.toLocaleString("en-US");
const kib = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${fmt(bytes / (1024 * 1024))} MiB` : `${fmt(bytes / 1024)} KiB`;
const th = "px-3 py-2";
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

interface Column {
  header: string;
  cell: (p: PlanRow) => string;
  numeric?: boolean;
}

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
  columns: Column[];
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
  return (
    <table className="w-full border-collapse text-left text-sm">
      <caption className="mb-2 text-left text-muted">{caption}</caption>
      <thead className="bg-subtle">
        <tr>
          <th scope="col" className={th}>
            Plan
          </th>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={`${th} ${c.numeric ? "text-right" : ""}`}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {plans.map((p) => (
          <tr key={p.id} className="border-t border-line">
            <th scope="row" className={`${th} whitespace-nowrap font-medium`}>
              <PlanName plan={p} current={current} aliases={aliases} />
            </th>
            {columns.map((c) => (
              <td key={c.header} className={`${th} ${c.numeric ? "text-right tabular-nums" : ""}`}>
                {c.cell(p)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
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
                  <dd className={c.numeric ? "text-right tabular-nums" : "text-right"}>{c.cell(p)}</dd>
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
        { header: "Requests per minute", cell: (p) => fmt(p.aPerMinute), numeric: true },
        { header: "Requests per month", cell: (p) => fmt(p.aPerMonth), numeric: true },
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
        { header: "Requests per minute", cell: (p) => fmt(p.bPerMinute), numeric: true },
        { header: "Requests per day", cell: (p) => fmt(p.bPerDay), numeric: true },
        { header: "Max request body", cell: (p) => kib(p.bMaxPayloadBytes), numeric: true },
        { header: "Webhooks", cell: (p) => (p.webhooks ? "Yes" : "No") },
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
