import Link from "next/link";
import { connection } from "next/server";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { currentPortalUser } from "@/lib/auth/portal-user";
import { errorFields, log } from "@/lib/log";

const NAV = [
  { href: "/", label: "Home" },
  { href: "/pricing", label: "Pricing" },
  { href: "/docs", label: "API reference" },
];

const linkClass = "text-slate-100 no-underline hover:text-white hover:underline focus-visible:outline-white";

export async function SiteHeader() {
  // Every page is rendered per request (the header is per user, and the CSP nonce needs it).
  await connection();
  // The header never breaks a page: an unreachable store shows the signed-out links.
  const user = await currentPortalUser().catch((err) => {
    log.error("site header session lookup failed", errorFields(err));
    return null;
  });
  return (
    <header className="border-b border-slate-200 bg-slate-900 text-white">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
        <Link
          href="/"
          className="text-lg font-semibold text-white no-underline hover:underline focus-visible:outline-white"
        >
          Options Research API
        </Link>
        <nav aria-label="Main">
          <ul className="flex flex-wrap items-center gap-x-5 gap-y-2">
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} className={linkClass}>
                  {item.label}
                </Link>
              </li>
            ))}
            {user ? (
              <>
                <li>
                  <Link href="/dashboard" className={linkClass}>
                    Dashboard
                  </Link>
                </li>
                <li className="max-w-[14rem] truncate text-sm text-slate-200" title={user.email}>
                  {user.email}
                </li>
                <li>
                  <SignOutButton />
                </li>
              </>
            ) : (
              <>
                <li>
                  <Link href="/signin" className={linkClass}>
                    Sign in
                  </Link>
                </li>
                <li>
                  <Link href="/signup" className={linkClass}>
                    Sign up
                  </Link>
                </li>
              </>
            )}
          </ul>
        </nav>
      </div>
    </header>
  );
}
