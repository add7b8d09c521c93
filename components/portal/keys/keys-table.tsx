"use client";

import type { KeyListItem } from "@/lib/domain/keys";
import { utcMinute } from "../format";

const STATE_LABEL = { active: "Active", inactive: "Inactive", revoked: "Revoked", expired: "Expired" } as const;

function statusText(k: KeyListItem): string {
  if (k.state === "active" && k.expiresAt) return `Active until ${utcMinute(k.expiresAt)} (rolled)`;
  return STATE_LABEL[k.state];
}

/** The account's keys; Revoke and Roll are offered on keys that still work. */
export function KeysTable({
  keys,
  canManage,
  onRevoke,
  onRoll,
}: {
  keys: KeyListItem[];
  canManage: boolean;
  onRevoke: (k: KeyListItem) => void;
  onRoll: (k: KeyListItem) => void;
}) {
  if (keys.length === 0) return <p className="text-slate-700">No keys yet: create one above.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="mb-2 text-left text-slate-700">
          Your API keys. Only the display prefix is kept; the full key was shown once.
        </caption>
        <thead className="bg-slate-100">
          <tr>
            {["Name", "Prefix", "Environment", "Plan", "Created", "Last used", "Status"].map((h) => (
              <th key={h} scope="col" className="px-3 py-2">
                {h}
              </th>
            ))}
            {canManage ? (
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} className="border-t border-slate-200" data-key-id={k.id}>
              <th scope="row" className="px-3 py-2 font-medium">
                {k.name}
              </th>
              <td className="px-3 py-2 font-mono">{k.prefix}…</td>
              <td className="px-3 py-2">{k.env === "test" ? "Test" : "Live"}</td>
              <td className="px-3 py-2">{k.plan}</td>
              <td className="whitespace-nowrap px-3 py-2">{utcMinute(k.createdAt)}</td>
              <td className="whitespace-nowrap px-3 py-2">{utcMinute(k.lastUsedAt)}</td>
              <td className="px-3 py-2">{statusText(k)}</td>
              {canManage ? (
                <td className="whitespace-nowrap px-3 py-2">
                  {k.state === "active" || k.state === "inactive" ? (
                    <span className="flex gap-2">
                      {k.state === "active" && !k.expiresAt ? (
                        <button
                          type="button"
                          onClick={() => onRoll(k)}
                          className="rounded border border-slate-400 px-2 py-1 hover:bg-slate-100"
                        >
                          Roll
                        </button>
                      ) : null}
                      <button
                        type="button"
                        onClick={() => onRevoke(k)}
                        className="rounded border border-red-400 px-2 py-1 text-red-800 hover:bg-red-50"
                      >
                        Revoke
                      </button>
                    </span>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
