import Link from "next/link";
import { connection } from "next/server";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { SiteMenu } from "@/components/site-menu";
import { ThemeToggle } from "@/components/theme-toggle";
import { buttonClass } from "@/components/ui/button";
import { currentPortalUser } from "@/lib/auth/portal-user";
import { errorFields, log } from "@/lib/log";

const NAV = [
  { href: "/", label: "Home" },
  { href: "/pricing", label: "Pricing" },
  { href: "/docs", label: "API reference" },
];

const navLink =
  "rounded-md px-2.5 py-1.5 text-sm text-muted no-underline hover:bg-hover hover:text-fg hover:no-underline";

/** The compact top bar: brand, site links, theme, and the account (a single menu on phones). */
export async function SiteHeader() {
  // Every page is rendered per request (the header is per user, and the CSP nonce needs it).
  await connection();
  // The header never breaks a page: an unreachable store shows the signed-out links.
  const user = await currentPortalUser().catch((err) => {
    log.error("site header session lookup failed", errorFields(err));
    return null;
  });
  const account = user
    ? [{ href: "/dashboard", label: "Dashboard" }]
    : [
        { href: "/signin", label: "Sign in" },
        { href: "/signup", label: "Sign up" },
      ];
  return (
    <header className="sticky top-0 z-30 h-topbar border-b border-line bg-canvas/95 backdrop-blur supports-[backdrop-filter]:bg-canvas/80">
      <div className="flex h-full items-center gap-3 px-4 lg:px-6">
        <Link
          href="/"
          className="flex shrink-0 items-center gap-2 font-semibold text-fg no-underline hover:no-underline"
        >
          <span
            aria-hidden="true"
            className="grid size-6 place-items-center rounded-md bg-accent text-xs text-accent-fg"
          >
            OR
          </span>
          <span className="max-sm:sr-only">Options Research API</span>
        </Link>
        <nav aria-label="Main" className="max-sm:hidden">
          <ul className="flex items-center gap-0.5">
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} className={navLink}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex min-w-0 items-center gap-1.5">
          <ThemeToggle />
          <div className="sm:hidden">
            <SiteMenu links={[...NAV, ...account]} email={user?.email ?? null} />
          </div>
          <ul className="flex min-w-0 items-center gap-1.5 max-sm:hidden">
            {user ? (
              <>
                <li>
                  <Link href="/dashboard" className={navLink}>
                    Dashboard
                  </Link>
                </li>
                <li className="max-w-56 truncate text-sm text-muted" title={user.email}>
                  {user.email}
                </li>
                <li>
                  <SignOutButton />
                </li>
              </>
            ) : (
              <>
                <li>
                  <Link href="/signin" className={navLink}>
                    Sign in
                  </Link>
                </li>
                <li>
                  <Link href="/signup" className={buttonClass("primary", "sm")}>
                    Sign up
                  </Link>
                </li>
              </>
            )}
          </ul>
        </div>
      </div>
    </header>
  );
}
