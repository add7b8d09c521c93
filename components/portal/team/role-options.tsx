import { ROLE_LABELS, type Role } from "@/lib/shared/roles";

/** The `<option>`s of a role `<select>` (the invite and change-role dialogs), each labelled as everywhere else. */
export function RoleOptions({ roles }: { roles: readonly Role[] }) {
  return (
    <>
      {roles.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABELS[r]}
        </option>
      ))}
    </>
  );
}
