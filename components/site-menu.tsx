"use client";

import { signOutHere } from "@/components/auth/sign-out-here";
import { buttonClass } from "@/components/ui/button";
import { MenuIcon } from "@/components/ui/icons";
import { Menu, MenuItem, MenuLabel, MenuLink, MenuSeparator } from "@/components/ui/menu";

/** The top bar's links on a phone, in one menu. */
export function SiteMenu({ links, email }: { links: { href: string; label: string }[]; email: string | null }) {
  return (
    <Menu
      trigger={
        <button type="button" className={buttonClass("ghost", "sm")}>
          <MenuIcon />
          Menu
        </button>
      }
    >
      {email ? <MenuLabel>{email}</MenuLabel> : null}
      {links.map((l) => (
        <MenuLink key={l.href} href={l.href}>
          {l.label}
        </MenuLink>
      ))}
      {email ? (
        <>
          <MenuSeparator />
          <MenuItem onSelect={() => void signOutHere()}>Sign out</MenuItem>
        </>
      ) : null}
    </Menu>
  );
}
