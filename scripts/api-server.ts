/** Entry point of `npm run start:api` (bundled by scripts/build-api.mjs); the server lives in lib/server/api-server.ts. */
import { runApiServer } from "../lib/server/api-server";

void runApiServer();
