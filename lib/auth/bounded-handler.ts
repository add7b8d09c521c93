/**
 * Auth.js's POST handler behind a bounded body: a sign-in form is a few hundred bytes, so anything over AUTH_BODY_LIMIT
 * is refused with 413 (Content-Length first, then the stream is cut) before Auth.js reads it.
 */
import { NextRequest } from "next/server";
import { AUTH_BODY_LIMIT, BodyError, withBoundedBody } from "../http/bounded-body";
import { requestIdFrom } from "../api/request-id";

export function boundedAuthPost(post: (request: NextRequest) => Promise<Response>) {
  return async (request: NextRequest): Promise<Response> => {
    let bounded: Request;
    try {
      bounded = await withBoundedBody(request, AUTH_BODY_LIMIT);
    } catch (err) {
      if (!(err instanceof BodyError)) throw err;
      return Response.json(
        { error: { code: err.code, message: err.message } },
        {
          status: err.status,
          headers: { "x-request-id": requestIdFrom(request.headers), "cache-control": "no-store" },
        },
      );
    }
    return post(bounded === request ? request : new NextRequest(bounded));
  };
}
