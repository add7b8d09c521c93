/** The parts of the OpenAPI 3.1 document the reference page renders. */
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
  security?: unknown[];
}

export interface PlanRow {
  plan: string;
  tier: string;
  familyA: { perMinute: number; perMonth: number };
  familyB: { perMinute: number; perDay: number; maxPayloadBytes: number; webhooks: boolean };
  liveData: string;
}

export interface ErrorCodeRow {
  code: string;
  status: number;
  description: string;
}

export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  "x-plans"?: PlanRow[];
  "x-error-codes"?: ErrorCodeRow[];
  "x-definitions"?: Record<string, Record<string, string>>;
}

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
