/** A small bar chart (server-rendered SVG, no script) with the numbers also given as text for screen readers. */
export function BarChart({
  title,
  labels,
  series,
}: {
  title: string;
  labels: string[];
  series: { name: string; values: number[]; colour: string }[];
}) {
  const max = Math.max(1, ...labels.map((_, i) => series.reduce((n, s) => n + (s.values[i] ?? 0), 0)));
  const w = 600;
  const h = 120;
  const bw = w / Math.max(1, labels.length);
  const total = series.map((s) => `${s.name}: ${s.values.reduce((a, b) => a + b, 0)}`).join(", ");
  return (
    <figure className="space-y-1">
      <figcaption className="text-sm font-semibold">{title}</figcaption>
      <svg viewBox={`0 0 ${w} ${h}`} className="h-32 w-full" role="img" aria-label={`${title}. Totals: ${total}`}>
        {labels.map((label, i) => {
          let y = h;
          return series.map((s) => {
            const v = s.values[i] ?? 0;
            const bh = (v / max) * (h - 4);
            y -= bh;
            return (
              <rect key={`${label}-${s.name}`} x={i * bw + 1} y={y} width={bw - 2} height={bh} fill={s.colour}>
                <title>{`${label} ${s.name}: ${v}`}</title>
              </rect>
            );
          });
        })}
      </svg>
      <p className="flex flex-wrap gap-3 text-xs text-slate-700">
        {series.map((s) => (
          <span key={s.name} className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-3 w-3" style={{ background: s.colour }} />
            {s.name}
          </span>
        ))}
        <span>
          {labels[0]} – {labels.at(-1)}
        </span>
      </p>
    </figure>
  );
}
