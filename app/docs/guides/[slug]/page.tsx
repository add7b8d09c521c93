import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { GUIDES } from "@/components/docs/guides";
import { GUIDE_CONTENT } from "@/components/docs/guide-content";

type Params = { params: Promise<{ slug: string }> };

const find = (slug: string) => GUIDES.find((g) => g.slug === slug);

export function generateStaticParams() {
  return GUIDES.map((g) => ({ slug: g.slug }));
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const guide = find((await params).slug);
  return guide ? { title: guide.title, description: guide.description } : {};
}

export default async function GuidePage({ params }: Params) {
  const guide = find((await params).slug);
  if (!guide) notFound();
  const Content = GUIDE_CONTENT[guide.slug];
  return (
    <article className="max-w-3xl space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/docs">API reference</Link> / Guides
      </nav>
      <h1 className="text-2xl font-semibold tracking-tight">{guide.title}</h1>
      <p className="text-lg text-muted">{guide.description}</p>
      <Content />
      <nav aria-label="Other guides" className="border-t border-line pt-4">
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {GUIDES.filter((g) => g.slug !== guide.slug).map((g) => (
            <li key={g.slug}>
              <Link href={`/docs/guides/${g.slug}`}>{g.title}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </article>
  );
}
