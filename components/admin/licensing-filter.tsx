import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { control } from "./fields";

/** The licensing table's filters (a GET form): route (suggested from the catalogue), environment and state. */
export function LicensingFilter({
  filter,
  routes,
}: {
  filter: { route?: string; env?: string; state?: string };
  routes: string[];
}) {
  return (
    <form method="get" aria-label="Filter the licensing table" className="flex flex-wrap items-end gap-3">
      <div className="min-w-0 flex-1 basis-56 space-y-1">
        <label htmlFor="lf-route" className="block text-sm font-medium">
          Route filter
        </label>
        <input
          id="lf-route"
          name="route"
          list="lf-routes"
          autoComplete="off"
          defaultValue={filter.route ?? ""}
          maxLength={200}
          className={control}
        />
        <datalist id="lf-routes">
          {routes.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
      </div>
      <div className="space-y-1">
        <label htmlFor="lf-env" className="block text-sm font-medium">
          Environment filter
        </label>
        <select id="lf-env" name="env" defaultValue={filter.env ?? ""} className={control}>
          <option value="">Any</option>
          <option value="live">Live (live)</option>
          <option value="test">Test (test)</option>
        </select>
      </div>
      <div className="space-y-1">
        <label htmlFor="lf-state" className="block text-sm font-medium">
          State filter
        </label>
        <select id="lf-state" name="state" defaultValue={filter.state ?? ""} className={control}>
          <option value="">Any</option>
          <option value="enabled">Enabled (enabled)</option>
          <option value="pending_licensing">Pending licensing (pending_licensing)</option>
        </select>
      </div>
      <Button type="submit" variant="primary">
        Filter
      </Button>
      <Link href="/admin/licensing" className={buttonClass("ghost")}>
        Clear
      </Link>
    </form>
  );
}
