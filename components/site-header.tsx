import Link from "next/link";

const NAV = [
  { href: "/", label: "Home" },
  { href: "/pricing", label: "Pricing" },
  { href: "/docs", label: "API reference" },
];

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-slate-900 text-white">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-4 px-4 py-3">
        <Link href="/" className="text-lg font-semibold text-white no-underline hover:underline focus-visible:outline-white">
          Options Research API
        </Link>
        <nav aria-label="Main">
          <ul className="flex gap-5">
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} className="text-slate-100 no-underline hover:text-white hover:underline focus-visible:outline-white">
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
