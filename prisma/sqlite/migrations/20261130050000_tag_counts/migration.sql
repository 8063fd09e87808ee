-- How many links each tag has per scope, kind and active flag (issue #14; SQLite only). A query
-- asked for the total of a tag's entries counted every link of the tag in the chain through the
-- links' index: ~73,000 at 1M entries, 10-16 ms of a 17-23 ms query. The counters answer it from
-- a few rows.
--
-- Only "plain" links are counted: those whose entry never expires and shares its name with no
-- other entry (validUntil null, nameShared false). Whether any other link counts depends on the
-- instant of the query (expiry) or on the nearer scopes of its chain (overrides), so those are
-- listed one by one in "TagLinkOdd" and checked as before. Triggers keep both in step with the
-- links in the writing transaction; the links' copies (scope, kind, active flag, expiry, mark)
-- are themselves kept in step with their entries (migration entry_tag_copies).
--
-- PostgreSQL counts the links as before: a counter row that every writer of a tag in a scope
-- updates would queue concurrent writers on it (SQLite's writers are serialized anyway).
CREATE TABLE "TagLinkCount" (
    "tagId" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL,
    "links" INTEGER NOT NULL,
    PRIMARY KEY ("tagId", "scopeId", "kind", "active")
) WITHOUT ROWID;

CREATE TABLE "TagLinkOdd" (
    "tagId" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL,
    "entryId" TEXT NOT NULL,
    PRIMARY KEY ("tagId", "scopeId", "kind", "active", "entryId")
) WITHOUT ROWID;

INSERT INTO "TagLinkCount" ("tagId", "scopeId", "kind", "active", "links")
SELECT "tagId", "scopeId", "kind", "active", COUNT(*) FROM "EntryTag"
WHERE "scopeId" IS NOT NULL AND "validUntil" IS NULL AND COALESCE("nameShared", 0) = 0
GROUP BY "tagId", "scopeId", "kind", "active";

INSERT INTO "TagLinkOdd" ("tagId", "scopeId", "kind", "active", "entryId")
SELECT "tagId", "scopeId", "kind", "active", "entryId" FROM "EntryTag"
WHERE "scopeId" IS NOT NULL AND ("validUntil" IS NOT NULL OR COALESCE("nameShared", 0) <> 0);

-- A link counts once its copies are there: inserted with them (the write paths), or when the
-- copies trigger fills them (an update from no scope to one).
CREATE TRIGGER "EntryTag_count_ai" AFTER INSERT ON "EntryTag" WHEN new."scopeId" IS NOT NULL BEGIN
    INSERT INTO "TagLinkCount" ("tagId", "scopeId", "kind", "active", "links")
        SELECT new."tagId", new."scopeId", new."kind", new."active", 1 WHERE new."validUntil" IS NULL AND COALESCE(new."nameShared", 0) = 0
        ON CONFLICT ("tagId", "scopeId", "kind", "active") DO UPDATE SET "links" = "links" + 1;
    INSERT OR IGNORE INTO "TagLinkOdd" ("tagId", "scopeId", "kind", "active", "entryId")
        SELECT new."tagId", new."scopeId", new."kind", new."active", new."entryId" WHERE new."validUntil" IS NOT NULL OR COALESCE(new."nameShared", 0) <> 0;
END;

CREATE TRIGGER "EntryTag_count_ad" AFTER DELETE ON "EntryTag" WHEN old."scopeId" IS NOT NULL BEGIN
    UPDATE "TagLinkCount" SET "links" = "links" - 1
    WHERE "tagId" = old."tagId" AND "scopeId" = old."scopeId" AND "kind" = old."kind" AND "active" = old."active"
        AND old."validUntil" IS NULL AND COALESCE(old."nameShared", 0) = 0;
    DELETE FROM "TagLinkOdd"
    WHERE "tagId" = old."tagId" AND "scopeId" = old."scopeId" AND "kind" = old."kind" AND "active" = old."active" AND "entryId" = old."entryId";
END;

-- The copies change together (one UPDATE sets them all): the old link leaves, the new one enters.
CREATE TRIGGER "EntryTag_count_au" AFTER UPDATE OF "scopeId", "kind", "active", "validUntil", "nameShared" ON "EntryTag"
WHEN old."scopeId" IS NOT new."scopeId" OR old."kind" IS NOT new."kind" OR old."active" IS NOT new."active"
    OR old."validUntil" IS NOT new."validUntil" OR old."nameShared" IS NOT new."nameShared"
BEGIN
    UPDATE "TagLinkCount" SET "links" = "links" - 1
    WHERE "tagId" = old."tagId" AND "scopeId" = old."scopeId" AND "kind" = old."kind" AND "active" = old."active"
        AND old."validUntil" IS NULL AND COALESCE(old."nameShared", 0) = 0;
    DELETE FROM "TagLinkOdd"
    WHERE "tagId" = old."tagId" AND "scopeId" = old."scopeId" AND "kind" = old."kind" AND "active" = old."active" AND "entryId" = old."entryId";
    INSERT INTO "TagLinkCount" ("tagId", "scopeId", "kind", "active", "links")
        SELECT new."tagId", new."scopeId", new."kind", new."active", 1 WHERE new."scopeId" IS NOT NULL AND new."validUntil" IS NULL AND COALESCE(new."nameShared", 0) = 0
        ON CONFLICT ("tagId", "scopeId", "kind", "active") DO UPDATE SET "links" = "links" + 1;
    INSERT OR IGNORE INTO "TagLinkOdd" ("tagId", "scopeId", "kind", "active", "entryId")
        SELECT new."tagId", new."scopeId", new."kind", new."active", new."entryId" WHERE new."scopeId" IS NOT NULL AND (new."validUntil" IS NOT NULL OR COALESCE(new."nameShared", 0) <> 0);
END;
