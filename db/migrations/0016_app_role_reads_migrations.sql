-- The application's role (ora_app, docs/security.md) may read which migrations were applied, so a process that cannot
-- migrate (DATABASE_OWNER_URL unset, the app connected as a member of ora_app) can still refuse to run on a schema
-- that is behind. Nothing else in the drizzle schema is granted.
GRANT USAGE ON SCHEMA "drizzle" TO ora_app;--> statement-breakpoint
GRANT SELECT ON "drizzle"."__drizzle_migrations" TO ora_app;
