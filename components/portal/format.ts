/** Times as the portal shows them: UTC to the minute (the same text on the server and in the browser). */
export function utcMinute(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "Never";
}
