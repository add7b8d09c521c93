/** The benchmark's baseline for `next start`: a constant JSON route handler, served only with BENCH_CONSTANT_ROUTE=1. */
export const dynamic = "force-dynamic";

export function GET(): Response {
  if (process.env.BENCH_CONSTANT_ROUTE !== "1")
    return Response.json({ error: { code: "not_found", message: "Not found." } }, { status: 404 });
  return Response.json({ ok: true, data: { value: 42 } });
}
