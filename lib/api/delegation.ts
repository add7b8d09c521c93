/**
 * Calls the portal makes on a signed-in member's behalf with one of the account's own keys, named by id (the playground:
 * no secret is held or sent). The portal marks the Request object it builds in process; a request from the network can
 * never carry the mark, so the only way to it is lib/server/gateway.ts (`handleAs`), after the portal checked that the
 * key is the account's and that the member's role may use it. The pipeline then treats the call as that key's: the same
 * checks (revoked, inactive, subscription), limits and metering as the key sent in a header.
 */
const delegated = new WeakMap<Request, string>();

export function actAs(request: Request, keyId: string): Request {
  delegated.set(request, keyId);
  return request;
}

/** The key id a portal-built request acts as, or undefined for every request from the network. */
export const delegatedKeyId = (request: Request): string | undefined => delegated.get(request);
