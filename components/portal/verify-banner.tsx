import { ResendVerificationButton } from "@/components/portal/resend-verification";
import { verifyNotice, type VerifyNoticeInput } from "@/lib/shared/verify-notice";

/** The dashboard's "Verify your e-mail address" box: what happened to the link, in words that are true (verify-notice.ts). */
export function VerifyBanner({ required, ...input }: VerifyNoticeInput & { required: boolean }) {
  const [before, ...after] = verifyNotice(input).split(input.email);
  return (
    <section
      aria-labelledby="verify-heading"
      className="space-y-2 rounded-lg border border-warn/40 bg-warn-soft p-4 text-warn"
    >
      <h2 id="verify-heading" className="font-semibold">
        Verify your e-mail address
      </h2>
      {required ? (
        <p role="alert" className="text-sm font-medium">
          The page you opened needs a verified e-mail address.
        </p>
      ) : null}
      <p className="text-sm" data-testid="verify-notice">
        {before}
        {after.length > 0 ? <strong>{input.email}</strong> : null}
        {after.join(input.email)}
      </p>
      <ResendVerificationButton />
    </section>
  );
}
