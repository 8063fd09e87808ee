-- "nameShared" (issue #14): an entry whose kind and name no other entry has (or had) cannot be
-- overridden by a nearer scope, so queries skip the override check for it. Counting a tag's
-- entries with that check probed the (scopeId, kind, name) index once per link outside the
-- nearest scope (~7,000 probes for one tag at 100K entries: 54 of 60 ms).
-- "EntryName" counts how often each kind and name was taken; an insert or a rename that takes a
-- name a second time marks every entry of that name. Two writers taking one name at once queue on
-- its "EntryName" row (the upsert waits for the other's row to commit), so the second always sees
-- the first's entry and marks it too. Marks are never cleared (a deleted or renamed twin leaves its
-- old partner marked): a stale mark only costs the check. The mark is copied to the entry's tag
-- links like the other copies, and the links' count index holds it.
ALTER TABLE "Entry" ADD COLUMN     "nameShared" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "EntryTag" ADD COLUMN     "nameShared" BOOLEAN;

CREATE TABLE "EntryName" (
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "taken" INTEGER NOT NULL,

    CONSTRAINT "EntryName_pkey" PRIMARY KEY ("kind","name")
);

CREATE INDEX "Entry_kind_name_idx" ON "Entry"("kind", "name");

INSERT INTO "EntryName" ("kind", "name", "taken") SELECT "kind", "name", COUNT(*) FROM "Entry" GROUP BY "kind", "name";
UPDATE "Entry" e SET "nameShared" = true FROM "EntryName" n WHERE n."kind" = e."kind" AND n."name" = e."name" AND n."taken" > 1;
UPDATE "EntryTag" et SET "nameShared" = e."nameShared" FROM "Entry" e WHERE e."id" = et."entryId";

-- Taking a name: count it, and mark its entries once it is taken twice.
CREATE FUNCTION "Entry_name_shared"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    taken INTEGER;
BEGIN
    INSERT INTO "EntryName" ("kind", "name", "taken") VALUES (NEW."kind", NEW."name", 1)
        ON CONFLICT ("kind", "name") DO UPDATE SET "taken" = "EntryName"."taken" + 1
        RETURNING "EntryName"."taken" INTO taken;
    IF taken > 1 THEN
        UPDATE "Entry" SET "nameShared" = true WHERE "kind" = NEW."kind" AND "name" = NEW."name" AND NOT "nameShared";
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER "Entry_name_shared_ai" AFTER INSERT ON "Entry" FOR EACH ROW EXECUTE FUNCTION "Entry_name_shared"();
CREATE TRIGGER "Entry_name_shared_au" AFTER UPDATE OF "kind", "name" ON "Entry" FOR EACH ROW
    WHEN (OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."name" IS DISTINCT FROM NEW."name")
    EXECUTE FUNCTION "Entry_name_shared"();

-- The copies on the tag links now include the mark.
CREATE OR REPLACE FUNCTION "EntryTag_copies_fill"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."scopeId" IS NULL THEN
        SELECT e."scopeId", e."kind", e."active", e."name", e."validUntil", e."updatedAt", e."priority", e."nameShared"
            INTO NEW."scopeId", NEW."kind", NEW."active", NEW."name", NEW."validUntil", NEW."updatedAt", NEW."priority", NEW."nameShared"
            FROM "Entry" e WHERE e."id" = NEW."entryId" FOR SHARE;
    END IF;
    RETURN NEW;
END $$;
CREATE OR REPLACE FUNCTION "Entry_tag_copies"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "EntryTag" SET "scopeId" = NEW."scopeId", "kind" = NEW."kind", "active" = NEW."active", "name" = NEW."name",
        "validUntil" = NEW."validUntil", "updatedAt" = NEW."updatedAt", "priority" = NEW."priority", "nameShared" = NEW."nameShared"
    WHERE "entryId" = NEW."id";
    RETURN NULL;
END $$;
DROP TRIGGER "Entry_tag_copies_au" ON "Entry";
CREATE TRIGGER "Entry_tag_copies_au" AFTER UPDATE OF "scopeId", "kind", "active", "name", "validUntil", "updatedAt", "priority", "nameShared" ON "Entry" FOR EACH ROW
    WHEN (OLD."scopeId" IS DISTINCT FROM NEW."scopeId" OR OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."active" IS DISTINCT FROM NEW."active"
        OR OLD."name" IS DISTINCT FROM NEW."name" OR OLD."validUntil" IS DISTINCT FROM NEW."validUntil"
        OR OLD."updatedAt" IS DISTINCT FROM NEW."updatedAt" OR OLD."priority" IS DISTINCT FROM NEW."priority"
        OR OLD."nameShared" IS DISTINCT FROM NEW."nameShared")
    EXECUTE FUNCTION "Entry_tag_copies"();

-- DropIndex
DROP INDEX "EntryTag_tagId_scopeId_kind_active_name_validUntil_entryId_idx";

-- CreateIndex
CREATE INDEX "EntryTag_tagId_scopeId_kind_active_name_validUntil_nameShar_idx" ON "EntryTag"("tagId", "scopeId", "kind", "active", "name", "validUntil", "nameShared", "entryId");
