-- The filters a text search applies to every match, kept beside the entry's searchable text:
-- its scope, kind, active flag and tag ids (" id1 id2 ", space-delimited). A search reads them
-- from the row it already visits for each match, so only the matches that pass go on to "Entry"
-- (at 100K entries a word matches about a thousand rows; a tag keeps about one in ten).
-- Triggers keep the copies in step with "Entry" and "EntryTag" in the writing transaction.
ALTER TABLE "EntrySearch" ADD COLUMN "scopeId" TEXT;
ALTER TABLE "EntrySearch" ADD COLUMN "kind" TEXT;
ALTER TABLE "EntrySearch" ADD COLUMN "active" BOOLEAN;
ALTER TABLE "EntrySearch" ADD COLUMN "tagIds" TEXT NOT NULL DEFAULT ' ';

UPDATE "EntrySearch" SET
    ("scopeId", "kind", "active") = (SELECT e."scopeId", e."kind", e."active" FROM "Entry" e WHERE e."id" = "EntrySearch"."entryId"),
    "tagIds" = ' ' || COALESCE((SELECT group_concat(et."tagId" || ' ', '') FROM "EntryTag" et WHERE et."entryId" = "EntrySearch"."entryId"), '');

-- The full-text index changes only with the text.
DROP TRIGGER "EntrySearch_au";
CREATE TRIGGER "EntrySearch_au" AFTER UPDATE OF "name", "body" ON "EntrySearch" BEGIN
    INSERT INTO "EntrySearchFts"("EntrySearchFts", "rowid", "name", "body") VALUES ('delete', old."rowid", old."name", old."body");
    INSERT INTO "EntrySearchFts"("rowid", "name", "body") VALUES (new."rowid", new."name", new."body");
END;

CREATE TRIGGER "EntrySearch_filters_ai" AFTER INSERT ON "EntrySearch" BEGIN
    UPDATE "EntrySearch" SET
        ("scopeId", "kind", "active") = (SELECT e."scopeId", e."kind", e."active" FROM "Entry" e WHERE e."id" = new."entryId"),
        "tagIds" = ' ' || COALESCE((SELECT group_concat(et."tagId" || ' ', '') FROM "EntryTag" et WHERE et."entryId" = new."entryId"), '')
    WHERE "rowid" = new."rowid";
END;
CREATE TRIGGER "Entry_search_filters_au" AFTER UPDATE OF "scopeId", "kind", "active" ON "Entry" BEGIN
    UPDATE "EntrySearch" SET "scopeId" = new."scopeId", "kind" = new."kind", "active" = new."active" WHERE "entryId" = new."id";
END;
CREATE TRIGGER "EntryTag_search_filters_ai" AFTER INSERT ON "EntryTag" BEGIN
    UPDATE "EntrySearch" SET "tagIds" = "tagIds" || new."tagId" || ' ' WHERE "entryId" = new."entryId";
END;
CREATE TRIGGER "EntryTag_search_filters_ad" AFTER DELETE ON "EntryTag" BEGIN
    UPDATE "EntrySearch" SET "tagIds" = replace("tagIds", ' ' || old."tagId" || ' ', ' ') WHERE "entryId" = old."entryId";
END;
