-- "nameShared" (issue #14): an entry whose kind and name no other entry has (or had) cannot be
-- overridden by a nearer scope, so queries skip the override check for it. Counting a tag's
-- entries with that check probed the (scopeId, kind, name) index once per link outside the
-- nearest scope (~7,000 probes for one tag at 100K entries: 54 of 60 ms on PostgreSQL).
-- "EntryName" counts how often each kind and name was taken; an insert or a rename that takes a
-- name a second time marks every entry of that name. Marks are never cleared (a deleted or renamed
-- twin leaves its old partner marked): a stale mark only costs the check. The mark is copied to
-- the entry's tag links like the other copies, and the links' count index holds it.
ALTER TABLE "Entry" ADD COLUMN "nameShared" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "EntryTag" ADD COLUMN "nameShared" BOOLEAN;

CREATE TABLE "EntryName" (
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "taken" INTEGER NOT NULL,

    PRIMARY KEY ("kind", "name")
);

CREATE INDEX "Entry_kind_name_idx" ON "Entry"("kind", "name");

INSERT INTO "EntryName" ("kind", "name", "taken") SELECT "kind", "name", COUNT(*) FROM "Entry" GROUP BY "kind", "name";
UPDATE "Entry" SET "nameShared" = true
WHERE EXISTS (SELECT 1 FROM "EntryName" n WHERE n."kind" = "Entry"."kind" AND n."name" = "Entry"."name" AND n."taken" > 1);
UPDATE "EntryTag" SET "nameShared" = (SELECT e."nameShared" FROM "Entry" e WHERE e."id" = "EntryTag"."entryId");

-- Taking a name: count it, and mark its entries once it is taken twice.
CREATE TRIGGER "Entry_name_shared_ai" AFTER INSERT ON "Entry" BEGIN
    INSERT INTO "EntryName" ("kind", "name", "taken") VALUES (new."kind", new."name", 1)
        ON CONFLICT ("kind", "name") DO UPDATE SET "taken" = "taken" + 1;
    UPDATE "Entry" SET "nameShared" = true
    WHERE "kind" = new."kind" AND "name" = new."name" AND NOT "nameShared"
        AND (SELECT n."taken" FROM "EntryName" n WHERE n."kind" = new."kind" AND n."name" = new."name") > 1;
END;
CREATE TRIGGER "Entry_name_shared_au" AFTER UPDATE OF "kind", "name" ON "Entry"
WHEN old."kind" IS NOT new."kind" OR old."name" IS NOT new."name"
BEGIN
    INSERT INTO "EntryName" ("kind", "name", "taken") VALUES (new."kind", new."name", 1)
        ON CONFLICT ("kind", "name") DO UPDATE SET "taken" = "taken" + 1;
    UPDATE "Entry" SET "nameShared" = true
    WHERE "kind" = new."kind" AND "name" = new."name" AND NOT "nameShared"
        AND (SELECT n."taken" FROM "EntryName" n WHERE n."kind" = new."kind" AND n."name" = new."name") > 1;
END;

-- The copies on the tag links now include the mark.
DROP TRIGGER "EntryTag_copies_ai";
CREATE TRIGGER "EntryTag_copies_ai" AFTER INSERT ON "EntryTag" WHEN new."scopeId" IS NULL BEGIN
    UPDATE "EntryTag" SET ("scopeId", "kind", "active", "name", "validUntil", "updatedAt", "priority", "nameShared") =
        (SELECT e."scopeId", e."kind", e."active", e."name", e."validUntil", e."updatedAt", e."priority", e."nameShared" FROM "Entry" e WHERE e."id" = new."entryId")
    WHERE "entryId" = new."entryId" AND "tagId" = new."tagId";
END;
DROP TRIGGER "Entry_tag_copies_au";
CREATE TRIGGER "Entry_tag_copies_au" AFTER UPDATE OF "scopeId", "kind", "active", "name", "validUntil", "updatedAt", "priority", "nameShared" ON "Entry"
WHEN old."scopeId" IS NOT new."scopeId" OR old."kind" IS NOT new."kind" OR old."active" IS NOT new."active" OR old."name" IS NOT new."name"
    OR old."validUntil" IS NOT new."validUntil" OR old."updatedAt" IS NOT new."updatedAt" OR old."priority" IS NOT new."priority"
    OR old."nameShared" IS NOT new."nameShared"
BEGIN
    UPDATE "EntryTag" SET "scopeId" = new."scopeId", "kind" = new."kind", "active" = new."active", "name" = new."name",
        "validUntil" = new."validUntil", "updatedAt" = new."updatedAt", "priority" = new."priority", "nameShared" = new."nameShared"
    WHERE "entryId" = new."id";
END;

-- DropIndex
DROP INDEX "EntryTag_tagId_scopeId_kind_active_name_validUntil_entryId_idx";

-- CreateIndex
CREATE INDEX "EntryTag_tagId_scopeId_kind_active_name_validUntil_nameShared_entryId_idx" ON "EntryTag"("tagId", "scopeId", "kind", "active", "name", "validUntil", "nameShared", "entryId");
