export default function AdminLoading() {
  return (
    <p role="status" className="text-slate-700">
      Loading…
    </p>
  );
}
