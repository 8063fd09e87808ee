-- An update of an entry's content changes its "updatedAt" and nothing else the tag links copy
-- (migrations entry_tag_copies, name_shared, tag_copies_current_row). The copy set all eight
-- columns of each link, and SQLite rewrites every index over a column an UPDATE sets, changed or
-- not: each update of an entry rewrote its links' entries in the three indexes over the copies,
-- where only the (tagId, scopeId, updatedAt) one had changed. Measured at 100K entries
-- (2026-11-30), an update of the entry's row alone: 15 pages written to the WAL, 0.064 ms for the
-- statement; with this trigger for the change of "updatedAt" alone, and the update setting only
-- the columns that changed (entries.service.ts), 8.9 pages and 0.018 ms.
--
-- Any other change is copied whole, as before, by "Entry_tag_copies_au"; a change of "updatedAt"
-- alone, by "Entry_tag_copies_updated_at_au". Both copy from the entry's row as it is when they run
-- (see tag_copies_current_row), and leave links already equal to it as they are.
DROP TRIGGER "Entry_tag_copies_au";
CREATE TRIGGER "Entry_tag_copies_au" AFTER UPDATE OF "scopeId", "kind", "active", "name", "validUntil", "priority", "nameShared" ON "Entry"
WHEN old."scopeId" IS NOT new."scopeId" OR old."kind" IS NOT new."kind" OR old."active" IS NOT new."active" OR old."name" IS NOT new."name"
    OR old."validUntil" IS NOT new."validUntil" OR old."priority" IS NOT new."priority" OR old."nameShared" IS NOT new."nameShared"
BEGIN
    UPDATE "EntryTag" AS et SET ("scopeId", "kind", "active", "name", "validUntil", "updatedAt", "priority", "nameShared") =
        (e."scopeId", e."kind", e."active", e."name", e."validUntil", e."updatedAt", e."priority", e."nameShared")
    FROM "Entry" AS e
    WHERE e."id" = new."id" AND et."entryId" = new."id"
        AND (et."scopeId" IS NOT e."scopeId" OR et."kind" IS NOT e."kind" OR et."active" IS NOT e."active" OR et."name" IS NOT e."name"
            OR et."validUntil" IS NOT e."validUntil" OR et."updatedAt" IS NOT e."updatedAt" OR et."priority" IS NOT e."priority"
            OR et."nameShared" IS NOT e."nameShared");
END;
CREATE TRIGGER "Entry_tag_copies_updated_at_au" AFTER UPDATE OF "updatedAt" ON "Entry"
WHEN old."updatedAt" IS NOT new."updatedAt"
    AND old."scopeId" IS new."scopeId" AND old."kind" IS new."kind" AND old."active" IS new."active" AND old."name" IS new."name"
    AND old."validUntil" IS new."validUntil" AND old."priority" IS new."priority" AND old."nameShared" IS new."nameShared"
BEGIN
    UPDATE "EntryTag" AS et SET "updatedAt" = e."updatedAt"
    FROM "Entry" AS e
    WHERE e."id" = new."id" AND et."entryId" = new."id" AND et."updatedAt" IS NOT e."updatedAt";
END;
