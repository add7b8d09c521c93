/** `npm run clients:generate`: regenerates both client libraries' generated files from the app's OpenAPI document. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { allRoutes } from "../lib/api/routes";
import { buildOpenApi } from "../lib/api/openapi";
import { GENERATED_FILES, generateClientFiles } from "./clients/generate";

const files = await generateClientFiles(buildOpenApi(allRoutes));
for (const [k, path] of Object.entries(GENERATED_FILES)) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, files[k as keyof typeof GENERATED_FILES]);
  console.log(`wrote ${path}`);
}
process.exit(0);
