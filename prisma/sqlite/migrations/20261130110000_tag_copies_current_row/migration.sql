-- A tag link's copies of its entry (migrations entry_tag_copies, name_shared) are taken from the
-- entry's row as it is when the copy runs, not from the row the update wrote (`new`): another
-- trigger of the same update may have changed the row since. A rename into a taken name marks the
-- renamed row "nameShared" in a nested update whose own copy marks its links; a copy of `new`
-- running after it put them back to unmarked (PostgreSQL runs a statement's triggers in name
-- order, and did so; SQLite's order is undefined, and happened to run the copy first). An unmarked
-- link is counted and ranked without its override check. Links already equal to the row are left
-- as they are.
DROP TRIGGER "Entry_tag_copies_au";
CREATE TRIGGER "Entry_tag_copies_au" AFTER UPDATE OF "scopeId", "kind", "active", "name", "validUntil", "updatedAt", "priority", "nameShared" ON "Entry"
WHEN old."scopeId" IS NOT new."scopeId" OR old."kind" IS NOT new."kind" OR old."active" IS NOT new."active" OR old."name" IS NOT new."name"
    OR old."validUntil" IS NOT new."validUntil" OR old."updatedAt" IS NOT new."updatedAt" OR old."priority" IS NOT new."priority"
    OR old."nameShared" IS NOT new."nameShared"
BEGIN
    UPDATE "EntryTag" AS et SET ("scopeId", "kind", "active", "name", "validUntil", "updatedAt", "priority", "nameShared") =
        (e."scopeId", e."kind", e."active", e."name", e."validUntil", e."updatedAt", e."priority", e."nameShared")
    FROM "Entry" AS e
    WHERE e."id" = new."id" AND et."entryId" = new."id"
        AND (et."scopeId" IS NOT e."scopeId" OR et."kind" IS NOT e."kind" OR et."active" IS NOT e."active" OR et."name" IS NOT e."name"
            OR et."validUntil" IS NOT e."validUntil" OR et."updatedAt" IS NOT e."updatedAt" OR et."priority" IS NOT e."priority"
            OR et."nameShared" IS NOT e."nameShared");
END;
