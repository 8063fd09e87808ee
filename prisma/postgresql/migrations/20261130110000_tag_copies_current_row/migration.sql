-- A tag link's copies of its entry (migrations entry_tag_copies, name_shared) are taken from the
-- entry's row as it is when the copy runs, not from NEW: another trigger of the same update may
-- have changed the row since. A rename into a taken name marks the renamed row "nameShared" in a
-- nested update (trigger "Entry_name_shared_au", which runs before "Entry_tag_copies_au": a
-- statement's triggers run in name order), whose own copy marks its links; the copy of NEW then
-- put them back to unmarked, and an unmarked link is counted and ranked without its override
-- check. Links already equal to the row are left as they are (no new row versions).
CREATE OR REPLACE FUNCTION "Entry_tag_copies"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "EntryTag" et SET "scopeId" = e."scopeId", "kind" = e."kind", "active" = e."active", "name" = e."name",
        "validUntil" = e."validUntil", "updatedAt" = e."updatedAt", "priority" = e."priority", "nameShared" = e."nameShared"
    FROM "Entry" e
    WHERE e."id" = NEW."id" AND et."entryId" = NEW."id"
        AND (et."scopeId" IS DISTINCT FROM e."scopeId" OR et."kind" IS DISTINCT FROM e."kind" OR et."active" IS DISTINCT FROM e."active"
            OR et."name" IS DISTINCT FROM e."name" OR et."validUntil" IS DISTINCT FROM e."validUntil"
            OR et."updatedAt" IS DISTINCT FROM e."updatedAt" OR et."priority" IS DISTINCT FROM e."priority"
            OR et."nameShared" IS DISTINCT FROM e."nameShared");
    RETURN NULL;
END $$;
