import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference";

export const metadata: Metadata = {
  title: "API reference",
  description: "Endpoints, parameters, responses, plans and error codes of the Options Research API.",
};

export default function DocsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">API reference</h1>
      <ApiReference />
    </div>
  );
}
