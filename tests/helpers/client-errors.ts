/** The TypeScript client's failures as the tests expect them: an ApiError with this status and code. */
import assert from "node:assert/strict";
import { ApiError } from "../../clients/typescript/src/index";

/** Awaits `p`, which must reject with an ApiError of this status and code; an answer's error carries its request id. */
export async function expectApiError(p: Promise<unknown>, status: number, code: string): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, `an ApiError, got ${err}`);
    assert.equal(err.code, code, err.message);
    assert.equal(err.status, status, err.message);
    assert.ok(err.message.length > 0);
    if (status !== 0) assert.match(err.requestId ?? "", /.+/, "the request id travels with the error");
    return err;
  }
  assert.fail(`expected ${status} ${code}`);
}
