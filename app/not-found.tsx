import Link from "next/link";

export default function NotFound() {
  return (
    <div className="space-y-4">
      <h1 className="text-3xl font-bold">Page not found</h1>
      <p className="text-slate-700">
        There is no page at this address. It may have moved, or the link may be mistyped.
      </p>
      <p>
        <Link href="/">Go to the home page</Link> or <Link href="/docs">read the API reference</Link>.
      </p>
      <p className="text-sm text-slate-600">
        Looking for the API? Its routes live under <code>/api/v1</code> and answer JSON.
      </p>
    </div>
  );
}
