/** The signed-in person, as built by the domain (lib/domain/users.ts); portal code names it from here. */
export type { PortalUser } from "../domain/users";
