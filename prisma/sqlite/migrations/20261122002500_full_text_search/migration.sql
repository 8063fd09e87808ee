-- Full-text search over entries (written by hand: Prisma cannot model FTS5).
-- "EntrySearch" holds each entry's searchable text (name; body = description, content,
-- rationale, constraints and examples of the current version); the service writes it in the
-- same transaction as the version. "EntrySearchFts" indexes it (external content, so the text is
-- stored once); the triggers keep the index in step, touching only the changed row's terms.
-- These tables are external to Prisma's schema (see EXTERNAL_TABLES in src/infra/migrations.ts).
CREATE TABLE "EntrySearch" (
    "rowid" INTEGER NOT NULL PRIMARY KEY,
    "entryId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    CONSTRAINT "EntrySearch_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "EntrySearch_entryId_key" ON "EntrySearch"("entryId");

CREATE VIRTUAL TABLE "EntrySearchFts" USING fts5(
    "name", "body",
    content = 'EntrySearch', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4'
);

CREATE TRIGGER "EntrySearch_ai" AFTER INSERT ON "EntrySearch" BEGIN
    INSERT INTO "EntrySearchFts"("rowid", "name", "body") VALUES (new."rowid", new."name", new."body");
END;
CREATE TRIGGER "EntrySearch_ad" AFTER DELETE ON "EntrySearch" BEGIN
    INSERT INTO "EntrySearchFts"("EntrySearchFts", "rowid", "name", "body") VALUES ('delete', old."rowid", old."name", old."body");
END;
CREATE TRIGGER "EntrySearch_au" AFTER UPDATE ON "EntrySearch" BEGIN
    INSERT INTO "EntrySearchFts"("EntrySearchFts", "rowid", "name", "body") VALUES ('delete', old."rowid", old."name", old."body");
    INSERT INTO "EntrySearchFts"("rowid", "name", "body") VALUES (new."rowid", new."name", new."body");
END;

-- Entries written before this migration.
INSERT INTO "EntrySearch" ("entryId", "name", "body")
SELECT e."id", e."name",
       trim(coalesce(v."description", '') || ' ' || coalesce(v."content", '') || ' ' || coalesce(v."rationale", '') || ' ' ||
            coalesce(v."constraints", '') || ' ' || coalesce(v."examples", ''))
FROM "Entry" e JOIN "EntryVersion" v ON v."id" = e."currentVersionId";
