-- The full-text index's tag column also holds, for every entry, one token that names its scope,
-- kind and active flag: "x" and the scope id in hex, "z", the kind's initial and "a" (active) or
-- "i" (the scoped tag tokens of migration text_index_scoped_tag_tokens without their tag). A
-- `context` answered from its shape's learnt bound then reads the text matches of one scope and
-- kind of its chain from the index alone ("the words AND that token"), where it read every
-- match's "EntrySearch" row for its scope, kind and active flag (memory-query.speculation.ts). At
-- 1M entries a two-word task matches ~14,000 entries, of which ~430 can reach its page (guidelines
-- of the session and the project): its statement 65.7 -> 49.3 ms at the median (p90 101 -> 71),
-- the whole request 83.7 -> 64.4 ms (measured 2026-12-03 on copies of one memory, in turn).
-- This migration takes ~35 s at 1M entries (the index written again).
--
-- BM25 gives the column no weight, so the token adds nothing to a match's rank; it counts in the
-- document's length, like the tag tokens (one more per entry, so every rank moves a little, and
-- the ranks everywhere come from this one index).
--
-- Triggers: as migration text_index_scoped_tag_tokens, with the token; and an entry's row of the
-- index is now written again when its scope, kind or active flag change whether it has tags or
-- not (whether it expires or shares its name matters to its tags' tokens only).
DROP TRIGGER "EntrySearch_ai";
DROP TRIGGER "EntrySearch_au";
DROP TRIGGER "EntryTag_search_tokens_ai";
DROP TRIGGER "EntryTag_search_tokens_ad";
DROP TRIGGER "Entry_search_tokens_au";

CREATE TRIGGER "EntrySearch_ai" AFTER INSERT ON "EntrySearch" BEGIN
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens") VALUES (new."rowid", new."name", new."body",
        COALESCE((SELECT group_concat(t."token", ' ') FROM (
            SELECT 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END AS "token"
            FROM "Entry" e WHERE e."id" = new."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) AS "token" FROM "EntryTag" et WHERE et."entryId" = new."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) || 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END
            FROM "EntryTag" et JOIN "Entry" e ON e."id" = et."entryId"
            WHERE et."entryId" = new."entryId" AND e."validUntil" IS NULL AND NOT e."nameShared") t), ''));
END;
CREATE TRIGGER "EntrySearch_au" AFTER UPDATE OF "name", "body" ON "EntrySearch" BEGIN
    DELETE FROM "EntrySearchFts" WHERE "rowid" = old."rowid";
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens") VALUES (new."rowid", new."name", new."body",
        COALESCE((SELECT group_concat(t."token", ' ') FROM (
            SELECT 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END AS "token"
            FROM "Entry" e WHERE e."id" = new."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) AS "token" FROM "EntryTag" et WHERE et."entryId" = new."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) || 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END
            FROM "EntryTag" et JOIN "Entry" e ON e."id" = et."entryId"
            WHERE et."entryId" = new."entryId" AND e."validUntil" IS NULL AND NOT e."nameShared") t), ''));
END;

CREATE TRIGGER "EntryTag_search_tokens_ai" AFTER INSERT ON "EntryTag" BEGIN
    DELETE FROM "EntrySearchFts" WHERE "rowid" = (SELECT s."rowid" FROM "EntrySearch" s WHERE s."entryId" = new."entryId");
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens")
    SELECT s."rowid", s."name", s."body",
        COALESCE((SELECT group_concat(t."token", ' ') FROM (
            SELECT 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END AS "token"
            FROM "Entry" e WHERE e."id" = new."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) AS "token" FROM "EntryTag" et WHERE et."entryId" = new."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) || 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END
            FROM "EntryTag" et JOIN "Entry" e ON e."id" = et."entryId"
            WHERE et."entryId" = new."entryId" AND e."validUntil" IS NULL AND NOT e."nameShared") t), '')
    FROM "EntrySearch" s WHERE s."entryId" = new."entryId";
END;
CREATE TRIGGER "EntryTag_search_tokens_ad" AFTER DELETE ON "EntryTag" BEGIN
    DELETE FROM "EntrySearchFts" WHERE "rowid" = (SELECT s."rowid" FROM "EntrySearch" s WHERE s."entryId" = old."entryId");
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens")
    SELECT s."rowid", s."name", s."body",
        COALESCE((SELECT group_concat(t."token", ' ') FROM (
            SELECT 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END AS "token"
            FROM "Entry" e WHERE e."id" = old."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) AS "token" FROM "EntryTag" et WHERE et."entryId" = old."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) || 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END
            FROM "EntryTag" et JOIN "Entry" e ON e."id" = et."entryId"
            WHERE et."entryId" = old."entryId" AND e."validUntil" IS NULL AND NOT e."nameShared") t), '')
    FROM "EntrySearch" s WHERE s."entryId" = old."entryId";
END;

CREATE TRIGGER "Entry_search_tokens_au" AFTER UPDATE OF "scopeId", "kind", "active", "validUntil", "nameShared" ON "Entry"
WHEN old."scopeId" IS NOT new."scopeId" OR old."kind" IS NOT new."kind" OR old."active" IS NOT new."active"
    OR (((old."validUntil" IS NULL) <> (new."validUntil" IS NULL) OR old."nameShared" IS NOT new."nameShared")
        AND EXISTS (SELECT 1 FROM "EntryTag" et WHERE et."entryId" = new."id"))
BEGIN
    DELETE FROM "EntrySearchFts" WHERE "rowid" = (SELECT s."rowid" FROM "EntrySearch" s WHERE s."entryId" = new."id");
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens")
    SELECT s."rowid", s."name", s."body",
        COALESCE((SELECT group_concat(t."token", ' ') FROM (
            SELECT 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END AS "token"
            FROM "Entry" e WHERE e."id" = new."id"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) AS "token" FROM "EntryTag" et WHERE et."entryId" = new."id"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) || 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END
            FROM "EntryTag" et JOIN "Entry" e ON e."id" = et."entryId"
            WHERE et."entryId" = new."id" AND e."validUntil" IS NULL AND NOT e."nameShared") t), '')
    FROM "EntrySearch" s WHERE s."entryId" = new."id";
END;

-- The index written again, every entry's row with its token.
INSERT INTO "EntrySearchFts"("EntrySearchFts") VALUES ('delete-all');
INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens")
SELECT s."rowid", s."name", s."body",
        COALESCE((SELECT group_concat(t."token", ' ') FROM (
            SELECT 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END AS "token"
            FROM "Entry" e WHERE e."id" = s."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) AS "token" FROM "EntryTag" et WHERE et."entryId" = s."entryId"
            UNION ALL
            SELECT 't' || lower(hex(et."tagId")) || 'x' || lower(hex(e."scopeId")) || 'z' || lower(substr(e."kind", 1, 1)) || CASE WHEN e."active" THEN 'a' ELSE 'i' END
            FROM "EntryTag" et JOIN "Entry" e ON e."id" = et."entryId"
            WHERE et."entryId" = s."entryId" AND e."validUntil" IS NULL AND NOT e."nameShared") t), '')
FROM "EntrySearch" s;
