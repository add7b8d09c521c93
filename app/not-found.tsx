import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
      <p className="text-muted">There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link href="/">Go to the home page</Link> or <Link href="/docs">read the API reference</Link>.
      </p>
      <p className="text-sm text-muted">
        Looking for the API? Its routes live under <code>/api/v1</code> and answer JSON.
      </p>
    </div>
  );
}
