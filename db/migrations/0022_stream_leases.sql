CREATE TABLE "stream_leases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"instance_id" text NOT NULL,
	"request_id" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stream_leases" ADD CONSTRAINT "stream_leases_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stream_leases_key_idx" ON "stream_leases" USING btree ("key_id","expires_at");--> statement-breakpoint
CREATE INDEX "stream_leases_account_idx" ON "stream_leases" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "stream_leases_instance_idx" ON "stream_leases" USING btree ("instance_id");--> statement-breakpoint
-- Opens one live stream of a key if its live leases are below p_limit (the plan's concurrent streams per key), on every
-- server process sharing the database: openers of one key are serialized by a transaction-scoped advisory lock, so the
-- count (a new snapshot per statement, READ COMMITTED) sees every lease committed before. The key's expired leases
-- (a process that died and stopped renewing) are removed first. Answers the new lease's id, or NULL when the key is full.
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
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION "acquire_stream_lease"(text, uuid, text, text, int, int) TO ora_app;
