import { Fragment, type ReactNode } from "react";

/** Inline `code` spans; everything else is plain text (no HTML is ever injected). */
export function InlineText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
          <code key={i}>{part.slice(1, -1)}</code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * Markdown-ish prose: blank lines separate blocks, a block starting with "## " is a heading
 * (rendered at `headingLevel`), other blocks are paragraphs with inline code.
 */
export function RichText({ text, headingLevel = 3 }: { text: string; headingLevel?: 3 | 4 }) {
  const Heading = headingLevel === 3 ? "h3" : "h4";
  const blocks: ReactNode[] = [];
  text.split(/\n\s*\n/).forEach((raw, i) => {
    const lines = raw.trim().split("\n");
    if (!lines[0]) return;
    if (lines[0].startsWith("## ")) {
      blocks.push(
        <Heading key={`h${i}`} className="mt-4 text-lg font-semibold">
          {lines[0].slice(3)}
        </Heading>,
      );
      lines.shift();
    }
    if (lines.length) {
      blocks.push(
        <p key={`p${i}`} className="max-w-3xl leading-relaxed text-slate-800">
          <InlineText text={lines.join(" ")} />
        </p>,
      );
    }
  });
  return <div className="space-y-3">{blocks}</div>;
}
