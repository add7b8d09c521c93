-- audit_log_append_only: source of the stored function (db/functions/README.md). Applied by migration 0002_portal_foundation.sql, which
-- carries this definition verbatim (tests/unit/db-functions.test.ts).
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
