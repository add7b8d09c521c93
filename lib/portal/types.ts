/** The signed-in person as every portal page, portal route and admin page sees them (from the session, checked against the database). */
export interface PortalUser {
  userId: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
  isAdmin: boolean;
  /** The account (tenant) the portal is acting on, and the user's role in it. */
  accountId: string;
  role: "owner" | "member";
}
