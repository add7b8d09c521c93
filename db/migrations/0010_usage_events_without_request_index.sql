-- Issue 9: no reader looks a call up by request_id alone (the request log reads by account and time, or key and time),
-- and the index's random values made every metered insert touch a random leaf page: in a 50-call admission batch it
-- cost about a third of the statement. Dropping it on the parent drops it on every daily partition.
DROP INDEX "usage_events_request_idx";
