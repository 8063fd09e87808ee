-- Full-text search over entries (written by hand: Prisma cannot model generated tsvector columns).
-- "EntrySearch" holds each entry's searchable text (name; body = description, content,
-- rationale, constraints and examples of the current version); the service writes it in the
-- same transaction as the version. "document" is derived by PostgreSQL (the 'simple'
-- configuration, like SQLite's unicode61 tokenizer: no stemming, no stop words) with the name
-- weighted A and the body B, and indexed with GIN.
-- This table is external to Prisma's schema (see EXTERNAL_TABLES in src/infra/migrations.ts).
CREATE TABLE "EntrySearch" (
    "entryId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "document" tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, "name"), 'A') || setweight(to_tsvector('simple'::regconfig, "body"), 'B')
    ) STORED,
    CONSTRAINT "EntrySearch_pkey" PRIMARY KEY ("entryId"),
    CONSTRAINT "EntrySearch_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "EntrySearch_document_idx" ON "EntrySearch" USING GIN ("document");

-- Entries written before this migration.
INSERT INTO "EntrySearch" ("entryId", "name", "body")
SELECT e."id", e."name",
       trim(coalesce(v."description", '') || ' ' || coalesce(v."content", '') || ' ' || coalesce(v."rationale", '') || ' ' ||
            coalesce(v."constraints", '') || ' ' || coalesce(v."examples"::text, ''))
FROM "Entry" e JOIN "EntryVersion" v ON v."id" = e."currentVersionId";
