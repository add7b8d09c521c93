-- Issue 31, item 6: when the next earnings are reported on next_earnings_date, before_open or after_close (nullable,
-- no default: null is unknown). The expected move decides from it whether an expiry on the event date carries the
-- event (lib/analytics/event-move.ts); the instruments CSV's optional earnings_timing column sets it.
ALTER TABLE "instruments" ADD COLUMN "earnings_timing" text;
