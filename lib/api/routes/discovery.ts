/** Discovery routes: what a caller can ask about, so a valid strategy request needs no guessing. Family B. */
import { KEYED_ROUTE_ERRORS } from "../errors";
import { defineRoute } from "../route";
import { symbolParams } from "./inputs";
import { schemas } from "../../contract/responses";

export const listSymbols = defineRoute({
  operationId: "listSymbols",
  method: "GET",
  path: "/api/v1/symbols",
  family: "B",
  envelope: "B",
  errors: KEYED_ROUTE_ERRORS,
  tags: ["Discovery"],
  summary: "Instruments the caller's environment has data for",
  description:
    "Every instrument of the key's environment (test keys: the demo market; live keys: the live store), sorted by " +
    "symbol: symbol, name, sector, type (equity, etf, index, volatility_index) and the as-of time of its newest " +
    "data. Metered like every route.",
  authenticated: true,
  response: schemas.symbols,
  handler: ({ engine, view }) => engine.symbols(view),
});

export const listExpiries = defineRoute({
  operationId: "listExpiries",
  method: "GET",
  path: "/api/v1/symbols/{symbol}/expiries",
  family: "B",
  envelope: "B",
  errors: [...KEYED_ROUTE_ERRORS, "symbol_not_found"],
  tags: ["Discovery"],
  summary: "Listed expiries of a symbol with their strikes",
  description:
    "The open expiries of the symbol's newest option chain, each with the strikes at which both the call and the " +
    "put have a usable two-sided quote. Any expiry and strikes from this answer (strikes ascending, as many as the " +
    "strategy takes) form a valid POST /api/v1/outputs request. Metered like every route.",
  authenticated: true,
  params: symbolParams,
  response: schemas.expiries,
  handler: ({ engine, view, params }) => engine.expiries(view, params.symbol),
});

export const discoveryRoutes = [listSymbols, listExpiries];
