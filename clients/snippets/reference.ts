/**
 * The API reference's code samples: each operation of the OpenAPI document gets `x-codeSamples` (the extension Scalar,
 * Redoc and others render beside an operation) with the same curl, TypeScript and Python the quick start and the
 * playground show (codeSamples), for the operation's example call (OPERATION_EXAMPLES). Pure: the document is copied,
 * never changed in place, so the API's own /api/v1/openapi.json stays free of presentation.
 */
import { codeSamples, operationIdFor } from "./index";
import { OPERATION_EXAMPLES } from "./examples";

export interface XCodeSample {
  lang: "curl" | "typescript" | "python";
  label: string;
  source: string;
}

export const SAMPLE_LABELS = {
  curl: "curl",
  typescript: "TypeScript (@options-research/client)",
  python: "Python (options_research)",
} as const;

type Paths = Record<string, Record<string, unknown>>;

/** The document with `x-codeSamples` on every operation that has a client method, against `baseUrl`. */
export function withCodeSamples<D extends { paths?: Paths }>(doc: D, baseUrl: string): D {
  const paths: Paths = {};
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    paths[path] = {};
    for (const [method, op] of Object.entries(ops)) {
      const id = operationIdFor(method, path);
      if (id === null || typeof op !== "object" || op === null) {
        paths[path][method] = op;
        continue;
      }
      const s = codeSamples(id, OPERATION_EXAMPLES[id], baseUrl);
      const samples: XCodeSample[] = [
        { lang: "curl", label: SAMPLE_LABELS.curl, source: s.curl },
        { lang: "typescript", label: SAMPLE_LABELS.typescript, source: s.typescript },
        { lang: "python", label: SAMPLE_LABELS.python, source: s.python },
      ];
      paths[path][method] = { ...op, "x-codeSamples": samples };
    }
  }
  return { ...doc, paths };
}
