-- The filters a text search applies to every match, kept beside the entry's searchable text:
-- its scope, kind, active flag and tag ids (" id1 id2 ", space-delimited). A search reads them
-- from the row it already visits for each match, so only the matches that pass go on to "Entry"
-- (at 100K entries a word matches about a thousand rows; a tag keeps about one in ten).
-- Triggers keep the copies in step with "Entry" and "EntryTag" in the writing transaction.
ALTER TABLE "EntrySearch" ADD COLUMN "scopeId" TEXT;
ALTER TABLE "EntrySearch" ADD COLUMN "kind" TEXT;
ALTER TABLE "EntrySearch" ADD COLUMN "active" BOOLEAN;
ALTER TABLE "EntrySearch" ADD COLUMN "tagIds" TEXT NOT NULL DEFAULT ' ';

UPDATE "EntrySearch" s SET "scopeId" = e."scopeId", "kind" = e."kind", "active" = e."active",
    "tagIds" = ' ' || COALESCE((SELECT string_agg(et."tagId" || ' ', '') FROM "EntryTag" et WHERE et."entryId" = s."entryId"), '')
FROM "Entry" e WHERE e."id" = s."entryId";

CREATE FUNCTION "EntrySearch_filters_fill"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT e."scopeId", e."kind", e."active" INTO NEW."scopeId", NEW."kind", NEW."active" FROM "Entry" e WHERE e."id" = NEW."entryId";
    NEW."tagIds" := ' ' || COALESCE((SELECT string_agg(et."tagId" || ' ', '') FROM "EntryTag" et WHERE et."entryId" = NEW."entryId"), '');
    RETURN NEW;
END $$;
CREATE TRIGGER "EntrySearch_filters_bi" BEFORE INSERT ON "EntrySearch" FOR EACH ROW EXECUTE FUNCTION "EntrySearch_filters_fill"();

CREATE FUNCTION "Entry_search_filters"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "EntrySearch" SET "scopeId" = NEW."scopeId", "kind" = NEW."kind", "active" = NEW."active" WHERE "entryId" = NEW."id";
    RETURN NULL;
END $$;
CREATE TRIGGER "Entry_search_filters_au" AFTER UPDATE OF "scopeId", "kind", "active" ON "Entry" FOR EACH ROW
    WHEN (OLD."scopeId" IS DISTINCT FROM NEW."scopeId" OR OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."active" IS DISTINCT FROM NEW."active")
    EXECUTE FUNCTION "Entry_search_filters"();

CREATE FUNCTION "EntryTag_search_filters"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE "EntrySearch" SET "tagIds" = "tagIds" || NEW."tagId" || ' ' WHERE "entryId" = NEW."entryId";
    ELSE
        UPDATE "EntrySearch" SET "tagIds" = replace("tagIds", ' ' || OLD."tagId" || ' ', ' ') WHERE "entryId" = OLD."entryId";
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER "EntryTag_search_filters_aid" AFTER INSERT OR DELETE ON "EntryTag" FOR EACH ROW EXECUTE FUNCTION "EntryTag_search_filters"();
