/** The throttled sign-in message, shared by the domain error and the sign-in form. */
export function waitMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-ins. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again, or reset your password.`;
}
