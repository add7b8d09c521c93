import type { Metadata } from "next";
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
    <article className="mx-auto w-full max-w-3xl space-y-4 px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">{guide.title}</h1>
      <p className="text-lg text-muted">{guide.description}</p>
      <Content />
    </article>
  );
}
