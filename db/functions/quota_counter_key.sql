-- quota_counter_key: source of the stored function (db/functions/README.md). Applied by migration 0012_security_hardening.sql, which
-- carries this definition verbatim (tests/unit/db-functions.test.ts).
CREATE OR REPLACE FUNCTION "quota_counter_key"(p_key_id text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT 'account:' || account_id::text || ':' || env::text FROM api_keys WHERE id = p_key_id
$$;
