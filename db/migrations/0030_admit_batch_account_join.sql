-- Issue 33: admit_batch names each call's account quota row by one join on api_keys instead of calls of the SQL
-- function quota_counter_key, whose query was planned again in every statement calling it (about 100 µs of PostgreSQL
-- CPU per batch, a third of a one-call batch's). Same signature, same decisions; its source is
-- db/functions/admit_batch.sql, applied here verbatim.
CREATE OR REPLACE FUNCTION "admit_batch"(
  p_slot_keys text[], p_slot_buckets text[], p_slot_starts timestamptz[],
  p_request_ids text[], p_key_ids text[], p_account_ids uuid[], p_endpoint_ids text[],
  p_statuses int[], p_error_codes text[], p_latencies_ms float8[], p_created_at timestamptz[], p_record boolean[],
  p_burst_slots int[], p_burst_limits int[], p_quota_slots int[], p_quota_limits int[],
  p_paths text[] DEFAULT NULL,
  p_sizes int[] DEFAULT NULL, p_burst_sizes int[] DEFAULT NULL, p_quota_sizes int[] DEFAULT NULL,
  p_quota_checked boolean[] DEFAULT NULL,
  p_error_messages text[] DEFAULT NULL, p_burst_messages text[] DEFAULT NULL, p_quota_messages text[] DEFAULT NULL
) RETURNS TABLE (limited text, status int, burst_used int, quota_used int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_n int := coalesce(cardinality(p_key_ids), 0);
  v_slots int := coalesce(cardinality(p_slot_keys), 0);
  v_prior int[];
  v_count int[];
  v_distinct int;
  v_lim int[];
  v_status int[];
  v_burst int[];
  v_quota int[];
  v_b int;
  v_q int;
  v_acct int[];
BEGIN
  IF v_n = 0 THEN
    RETURN;
  END IF;
  -- The counts are read after the rows are locked, by a later statement of this function: only READ COMMITTED gives that
  -- statement a snapshot that sees the commits the lock waited for.
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'admit_batch needs READ COMMITTED, not %', current_setting('transaction_isolation');
  END IF;
  IF cardinality(p_request_ids) <> v_n OR cardinality(p_account_ids) <> v_n OR cardinality(p_endpoint_ids) <> v_n
    OR cardinality(p_statuses) <> v_n OR cardinality(p_error_codes) <> v_n OR cardinality(p_latencies_ms) <> v_n
    OR cardinality(p_created_at) <> v_n OR cardinality(p_record) <> v_n OR cardinality(p_burst_slots) <> v_n
    OR cardinality(p_burst_limits) <> v_n OR cardinality(p_quota_slots) <> v_n OR cardinality(p_quota_limits) <> v_n
    OR cardinality(p_slot_buckets) <> v_slots OR cardinality(p_slot_starts) <> v_slots
    OR (p_paths IS NOT NULL AND cardinality(p_paths) <> v_n)
    OR (p_sizes IS NOT NULL AND cardinality(p_sizes) <> v_n)
    OR (p_burst_sizes IS NOT NULL AND cardinality(p_burst_sizes) <> v_n)
    OR (p_quota_sizes IS NOT NULL AND cardinality(p_quota_sizes) <> v_n)
    OR (p_quota_checked IS NOT NULL AND cardinality(p_quota_checked) <> v_n)
    OR (p_error_messages IS NOT NULL AND cardinality(p_error_messages) <> v_n)
    OR (p_burst_messages IS NOT NULL AND cardinality(p_burst_messages) <> v_n)
    OR (p_quota_messages IS NOT NULL AND cardinality(p_quota_messages) <> v_n) THEN
    RAISE EXCEPTION 'admit_batch: the argument arrays differ in length';
  END IF;
  FOR i IN 1..v_n LOOP
    IF p_burst_slots[i] IS NULL OR p_quota_slots[i] IS NULL OR p_burst_slots[i] NOT BETWEEN 1 AND v_slots
      OR p_quota_slots[i] NOT BETWEEN 1 AND v_slots OR p_burst_slots[i] = p_quota_slots[i]
      OR p_slot_keys[p_burst_slots[i]] <> p_key_ids[i] OR p_slot_keys[p_quota_slots[i]] <> p_key_ids[i] THEN
      RAISE EXCEPTION 'admit_batch: call % names no slot, one slot twice, or another key''s slot', i;
    END IF;
  END LOOP;
  -- The quota is the account's per environment, shared by all its keys (docs/api-contract.md); the burst stays per key.
  -- Each distinct quota slot gets a companion row keyed by quota_counter_key (appended to the slots): that row decides,
  -- and the key's own quota row keeps tallying the key's share (the account row is never behind any of its keys' rows).
  -- One statement names them, ranks them in sorted order and appends the distinct ones. The name is quota_counter_key's
  -- (db/functions/quota_counter_key.sql), written out here: a call of that SQL function plans its query again in every
  -- statement that calls it, which cost a third of a one-call batch's CPU.
  SELECT array_agg(v_slots + r.e ORDER BY r.i),
    p_slot_keys || array_agg(r.k ORDER BY r.e) FILTER (WHERE r.first),
    p_slot_buckets || array_agg(r.b ORDER BY r.e) FILTER (WHERE r.first),
    p_slot_starts || array_agg(r.st ORDER BY r.e) FILTER (WHERE r.first)
  INTO v_acct, p_slot_keys, p_slot_buckets, p_slot_starts
  FROM (
    SELECT q.*, dense_rank() OVER (ORDER BY q.k COLLATE "C", q.b COLLATE "C", q.st)::int AS e,
      row_number() OVER (PARTITION BY q.k, q.b, q.st) = 1 AS first
    FROM (
      SELECT u.i, 'account:' || a.account_id::text || ':' || a.env::text AS k, p_slot_buckets[u.s] AS b, p_slot_starts[u.s] AS st
      FROM unnest(p_quota_slots, p_key_ids) WITH ORDINALITY AS u(s, kid, i) LEFT JOIN api_keys a ON a.id = u.kid
    ) q
  ) r;
  IF array_position(p_slot_keys, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'admit_batch: a call names a key that does not exist';
  END IF;
  v_slots := cardinality(p_slot_keys);

  -- Creates the missing rows and locks every row in sorted order, without writing a new version of the existing ones
  -- (rows are locked even where the DO UPDATE condition is false).
  INSERT INTO usage_counters AS c (key_id, bucket, window_start, count)
  SELECT k, b, s, 0 FROM unnest(p_slot_keys, p_slot_buckets, p_slot_starts) AS u(k, b, s) ORDER BY k COLLATE "C", b COLLATE "C", s
  ON CONFLICT (key_id, bucket, window_start) DO UPDATE SET count = c.count WHERE false;

  -- The locked rows' latest committed counts: a new statement, so a new snapshot that sees every commit before the lock.
  SELECT array_agg(c.count ORDER BY u.j), count(DISTINCT c.ctid) INTO v_prior, v_distinct
  FROM unnest(p_slot_keys, p_slot_buckets, p_slot_starts) WITH ORDINALITY AS u(k, b, s, j)
  JOIN usage_counters c ON c.key_id = u.k AND c.bucket = u.b AND c.window_start = u.s;
  IF v_distinct <> v_slots OR coalesce(cardinality(v_prior), 0) <> v_slots THEN
    RAISE EXCEPTION 'admit_batch: the slots must be % distinct counter rows', v_slots;
  END IF;

  v_count := v_prior;
  v_lim := array_fill(0, ARRAY[v_n]);
  v_status := array_fill(0, ARRAY[v_n]);
  v_burst := array_fill(0, ARRAY[v_n]);
  v_quota := array_fill(0, ARRAY[v_n]);
  FOR i IN 1..v_n LOOP
    v_b := v_count[p_burst_slots[i]];
    -- The account row decides; a key row ahead of it (counts from before this migration) is honoured, never forgotten.
    v_q := greatest(v_count[v_acct[i]], v_count[p_quota_slots[i]]);
    IF v_b IS NULL OR v_q IS NULL THEN
      RAISE EXCEPTION 'admit_batch: call % names no slot', i;
    END IF;
    IF v_b >= p_burst_limits[i] THEN
      v_lim[i] := 1;
      v_status[i] := 429;
      v_burst[i] := p_burst_limits[i];
      v_quota[i] := v_q;
    ELSE
      v_count[p_burst_slots[i]] := v_b + 1;
      v_burst[i] := v_b + 1;
      IF NOT coalesce(p_quota_checked[i], true) THEN
        -- A refusal decided before the quota (inactive key, body too large, licensing, idempotency): its burst unit only.
        v_status[i] := p_statuses[i];
        v_quota[i] := v_q;
      ELSIF v_q >= p_quota_limits[i] THEN
        v_lim[i] := 2;
        v_status[i] := 403;
        v_quota[i] := p_quota_limits[i];
      ELSIF p_statuses[i] >= 200 AND p_statuses[i] < 300 THEN
        v_count[v_acct[i]] := v_q + 1;
        v_count[p_quota_slots[i]] := v_count[p_quota_slots[i]] + 1;
        v_status[i] := p_statuses[i];
        v_quota[i] := v_q + 1;
      ELSE
        v_status[i] := p_statuses[i];
        v_quota[i] := v_q;
      END IF;
    END IF;
  END LOOP;

  WITH counters AS (
    UPDATE usage_counters c SET count = u.n
    FROM unnest(p_slot_keys, p_slot_buckets, p_slot_starts, v_count, v_prior) AS u(k, b, s, n, p)
    WHERE u.n <> u.p AND c.key_id = u.k AND c.bucket = u.b AND c.window_start = u.s
  ), calls AS (
    SELECT * FROM unnest(p_request_ids, p_key_ids, p_account_ids, p_endpoint_ids, v_status, v_lim, p_error_codes, p_latencies_ms, p_created_at, p_record, p_paths,
        p_sizes, p_burst_sizes, p_quota_sizes, v_burst, p_burst_limits, v_quota, p_quota_limits,
        p_error_messages, p_burst_messages, p_quota_messages)
      WITH ORDINALITY AS u(r, k, a, e, st, lim, ec, lat, ca, rec, pth, sz, bsz, qsz, bu, bl, qu, ql, em, bm, qm, i)
    WHERE rec
  ), events AS (
    INSERT INTO usage_events (request_id, key_id, account_id, endpoint_id, path, status, error_code, latency_ms, created_at,
      response_bytes, burst_remaining, burst_limit, quota_remaining, quota_limit, error_message)
    SELECT r, k, a, e, left(pth, 512), st, CASE lim WHEN 1 THEN 'rate_limit_exceeded' WHEN 2 THEN 'plan_limit_exceeded' ELSE ec END, lat, ca,
      CASE lim WHEN 1 THEN bsz WHEN 2 THEN qsz ELSE sz END, greatest(0, bl - bu), bl, greatest(0, ql - qu), ql,
      left(CASE lim WHEN 1 THEN bm WHEN 2 THEN qm ELSE CASE WHEN st BETWEEN 200 AND 299 THEN NULL ELSE em END END, 1000)
    FROM calls ORDER BY i
  )
  INSERT INTO usage_daily AS d (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
  SELECT k, (array_agg(a ORDER BY i))[1], (ca AT TIME ZONE 'UTC')::date, e, count(*)::int, (count(*) FILTER (WHERE st >= 200 AND st < 300))::int,
    (count(*) FILTER (WHERE st >= 400 AND st < 500))::int, (count(*) FILTER (WHERE st >= 500))::int, sum(lat)
  FROM calls
  GROUP BY k, (ca AT TIME ZONE 'UTC')::date, e
  ON CONFLICT (key_id, day, endpoint_id) DO UPDATE SET calls = d.calls + excluded.calls, ok_calls = d.ok_calls + excluded.ok_calls,
    client_errors = d.client_errors + excluded.client_errors, server_errors = d.server_errors + excluded.server_errors,
    latency_ms_sum = d.latency_ms_sum + excluded.latency_ms_sum;

  RETURN QUERY
  SELECT CASE u.lim WHEN 1 THEN 'burst' WHEN 2 THEN 'quota' END, u.st, u.bu, u.qu
  FROM unnest(v_lim, v_status, v_burst, v_quota) WITH ORDINALITY AS u(lim, st, bu, qu, i)
  ORDER BY u.i;
END
$$;
GRANT EXECUTE ON FUNCTION "admit_batch"(text[], text[], timestamptz[], text[], text[], uuid[], text[], int[], text[], float8[], timestamptz[], boolean[], int[], int[], int[], int[], text[], int[], int[], int[], boolean[], text[], text[], text[]) TO ora_app;
