/** What the playground sends and what it shows back: shared by the page and the server that makes the call. */
export interface PlaygroundRequest {
  operation: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

export interface PlaygroundResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  durationMs: number;
  path: string;
}
