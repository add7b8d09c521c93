import { codeSamples } from "@/clients/snippets";
import { baseUrl } from "@/components/base-url";
import { CodeTabs } from "@/components/ui/code-tabs";

/** The first call (a ticker summary) in curl, TypeScript and Python, against the address this page was reached on. */
export async function QuickStartCode({ className }: { className?: string }) {
  const samples = codeSamples("getTickerSummary", { symbol: "AAPL" }, await baseUrl());
  return <CodeTabs label="Quick start language" samples={samples} className={className} />;
}
