-- admit_units: source of the stored function (db/functions/README.md). Applied by migration 0021_stream_metered_units.sql, which
-- carries this definition verbatim (tests/unit/db-functions.test.ts).
CREATE OR REPLACE FUNCTION "admit_units"(
  p_request_ids text[], p_key_ids text[], p_account_ids uuid[], p_endpoint_ids text[], p_created_at timestamptz[],
  p_units int[], p_quota_buckets text[], p_quota_starts timestamptz[], p_quota_limits int[]
) RETURNS TABLE (granted int, quota_used int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_n int := coalesce(cardinality(p_key_ids), 0);
  v_keys text[];
  v_buckets text[];
  v_starts timestamptz[];
  v_prior int[];
  v_count int[];
  v_kslot int[];
  v_aslot int[];
  v_granted int[];
  v_used int[];
  v_q int;
  v_g int;
BEGIN
  IF v_n = 0 THEN
    RETURN;
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'admit_units needs READ COMMITTED, not %', current_setting('transaction_isolation');
  END IF;
  IF cardinality(p_request_ids) <> v_n OR cardinality(p_account_ids) <> v_n OR cardinality(p_endpoint_ids) <> v_n
    OR cardinality(p_created_at) <> v_n OR cardinality(p_units) <> v_n OR cardinality(p_quota_buckets) <> v_n
    OR cardinality(p_quota_starts) <> v_n OR cardinality(p_quota_limits) <> v_n THEN
    RAISE EXCEPTION 'admit_units: the argument arrays differ in length';
  END IF;
  IF array_position(p_units, NULL) IS NOT NULL OR EXISTS (SELECT 1 FROM unnest(p_units) AS u(n) WHERE n < 1) THEN
    RAISE EXCEPTION 'admit_units: every call asks for at least one unit';
  END IF;
  -- The counter rows: each call's key row and its account's row, distinct, in admit_batch's lock order.
  SELECT array_agg(d.k ORDER BY d.k COLLATE "C", d.b COLLATE "C", d.s),
    array_agg(d.b ORDER BY d.k COLLATE "C", d.b COLLATE "C", d.s),
    array_agg(d.s ORDER BY d.k COLLATE "C", d.b COLLATE "C", d.s)
  INTO v_keys, v_buckets, v_starts
  FROM (SELECT DISTINCT x.k, x.b, x.s FROM (
      SELECT u.kid AS k, u.b, u.s FROM unnest(p_key_ids, p_quota_buckets, p_quota_starts) AS u(kid, b, s)
      UNION ALL
      SELECT quota_counter_key(u.kid), u.b, u.s FROM unnest(p_key_ids, p_quota_buckets, p_quota_starts) AS u(kid, b, s)
    ) x) d;
  IF array_position(v_keys, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'admit_units: a call names a key that does not exist';
  END IF;

  INSERT INTO usage_counters AS c (key_id, bucket, window_start, count)
  SELECT k, b, s, 0 FROM unnest(v_keys, v_buckets, v_starts) AS u(k, b, s) ORDER BY k COLLATE "C", b COLLATE "C", s
  ON CONFLICT (key_id, bucket, window_start) DO UPDATE SET count = c.count WHERE false;

  SELECT array_agg(c.count ORDER BY u.j) INTO v_prior
  FROM unnest(v_keys, v_buckets, v_starts) WITH ORDINALITY AS u(k, b, s, j)
  JOIN usage_counters c ON c.key_id = u.k AND c.bucket = u.b AND c.window_start = u.s;
  IF coalesce(cardinality(v_prior), 0) <> cardinality(v_keys) THEN
    RAISE EXCEPTION 'admit_units: the counter rows could not be locked';
  END IF;

  SELECT array_agg(ks.j ORDER BY u.i), array_agg(acs.j ORDER BY u.i) INTO v_kslot, v_aslot
  FROM unnest(p_key_ids, p_quota_buckets, p_quota_starts) WITH ORDINALITY AS u(kid, b, s, i)
  JOIN unnest(v_keys, v_buckets, v_starts) WITH ORDINALITY AS ks(k, b, s, j) ON ks.k = u.kid AND ks.b = u.b AND ks.s = u.s
  JOIN unnest(v_keys, v_buckets, v_starts) WITH ORDINALITY AS acs(k, b, s, j)
    ON acs.k = quota_counter_key(u.kid) AND acs.b = u.b AND acs.s = u.s;
  IF coalesce(cardinality(v_kslot), 0) <> v_n THEN
    RAISE EXCEPTION 'admit_units: a call names no counter row';
  END IF;

  v_count := v_prior;
  v_granted := array_fill(0, ARRAY[v_n]);
  v_used := array_fill(0, ARRAY[v_n]);
  FOR i IN 1..v_n LOOP
    v_q := greatest(v_count[v_aslot[i]], v_count[v_kslot[i]]);
    v_g := least(p_units[i], greatest(p_quota_limits[i] - v_q, 0));
    v_count[v_aslot[i]] := v_q + v_g;
    v_count[v_kslot[i]] := v_count[v_kslot[i]] + v_g;
    v_granted[i] := v_g;
    v_used[i] := v_q + v_g;
  END LOOP;

  WITH counters AS (
    UPDATE usage_counters c SET count = u.n
    FROM unnest(v_keys, v_buckets, v_starts, v_count, v_prior) AS u(k, b, s, n, p)
    WHERE u.n <> u.p AND c.key_id = u.k AND c.bucket = u.b AND c.window_start = u.s
  ), calls AS (
    SELECT * FROM unnest(p_request_ids, p_key_ids, p_account_ids, p_endpoint_ids, p_created_at, p_units, v_granted)
      WITH ORDINALITY AS u(r, k, a, e, ca, un, g, i)
  ), recs AS (
    SELECT r, k, a, e, ca, 200 AS st, NULL::text AS ec, g AS un, i, 0 AS part FROM calls WHERE g > 0
    UNION ALL
    SELECT r || ':refused', k, a, e, ca, 403, 'plan_limit_exceeded', un - g, i, 1 FROM calls WHERE un > g
  ), events AS (
    INSERT INTO usage_events (request_id, key_id, account_id, endpoint_id, status, error_code, latency_ms, units, created_at)
    SELECT r, k, a, e, st, ec, 0, un, ca FROM recs ORDER BY i, part
  )
  INSERT INTO usage_daily AS d (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
  SELECT k, (array_agg(a ORDER BY i))[1], (ca AT TIME ZONE 'UTC')::date, e, sum(un)::int,
    coalesce(sum(un) FILTER (WHERE st = 200), 0)::int, coalesce(sum(un) FILTER (WHERE st = 403), 0)::int, 0, 0
  FROM recs
  GROUP BY k, (ca AT TIME ZONE 'UTC')::date, e
  ON CONFLICT (key_id, day, endpoint_id) DO UPDATE SET calls = d.calls + excluded.calls, ok_calls = d.ok_calls + excluded.ok_calls,
    client_errors = d.client_errors + excluded.client_errors;

  RETURN QUERY
  SELECT u.g, u.q FROM unnest(v_granted, v_used) WITH ORDINALITY AS u(g, q, i) ORDER BY u.i;
END
$$;
