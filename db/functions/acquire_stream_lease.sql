-- acquire_stream_lease: source of the stored function (db/functions/README.md). Applied by migration 0022_stream_leases.sql, which
-- carries this definition verbatim (tests/unit/db-functions.test.ts).
CREATE OR REPLACE FUNCTION "acquire_stream_lease"(
  p_key_id text, p_account_id uuid, p_instance_id text, p_request_id text, p_limit int, p_ttl_ms int
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_open int;
  v_id bigint;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'acquire_stream_lease needs READ COMMITTED, not %', current_setting('transaction_isolation');
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('stream_leases:' || p_key_id, 0));
  DELETE FROM stream_leases WHERE key_id = p_key_id AND expires_at <= clock_timestamp();
  SELECT count(*) INTO v_open FROM stream_leases WHERE key_id = p_key_id;
  IF v_open >= p_limit THEN
    RETURN NULL;
  END IF;
  INSERT INTO stream_leases (key_id, account_id, instance_id, request_id, opened_at, renewed_at, expires_at)
  VALUES (p_key_id, p_account_id, p_instance_id, p_request_id, clock_timestamp(), clock_timestamp(),
    clock_timestamp() + make_interval(secs => p_ttl_ms / 1000.0))
  RETURNING id INTO v_id;
  RETURN v_id;
END
$$;
