/**
 * After a required field's label: the same words on every form (the sign-up's, the portal's and the admin's). Hidden
 * from assistive technology, which hears "required" from the control's own `required` attribute, so the field's name
 * stays its label ("Reason", not "Reason (required)").
 */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="font-normal text-muted">
      {" "}
      (required)
    </span>
  );
}
