-- The full-text index also holds each entry's tags, as tokens of a third column ("tagTokens": "t"
-- and the tag id in hex, one token per tag whatever characters the id has), so that a text search
-- with tags intersects the word's postings with the tags' inside FTS5 instead of reading the
-- "EntrySearch" row of every match to test its copy of the tag ids. At 1M entries a word matches
-- ~7,000 entries and a tag keeps about a tenth of them: the statement of a `memoryQuery` with a tag
-- and a word took 25.4 ms at the median (p90 49.7) against 14.9 (21.6) with the tags in the index,
-- asked in turn with a random word and tag each time. Text relevance (BM25) gives the column no
-- weight; its tokens do count in a document's length (one per tag).
--
-- Contentless, with contentless_delete: a row leaves the index by its rowid alone, so no trigger
-- below needs to know what the index holds. (An external-content index must be told the values it
-- indexed to delete a row, and the tag tokens change in triggers of other tables, whose order
-- SQLite leaves undefined.) Nothing reads the index's columns back: searches take rowids and BM25.
DROP TRIGGER "EntrySearch_ai";
DROP TRIGGER "EntrySearch_ad";
DROP TRIGGER "EntrySearch_au";
DROP TABLE "EntrySearchFts";

CREATE VIRTUAL TABLE "EntrySearchFts" USING fts5(
    "name", "body", "tagTokens",
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4'
);

INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens")
SELECT s."rowid", s."name", s."body",
       COALESCE((SELECT group_concat('t' || lower(hex(et."tagId")), ' ') FROM "EntryTag" et WHERE et."entryId" = s."entryId"), '')
FROM "EntrySearch" s;

-- An entry's text, with its tags as they are when the row is written.
CREATE TRIGGER "EntrySearch_ai" AFTER INSERT ON "EntrySearch" BEGIN
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens") VALUES (new."rowid", new."name", new."body",
        COALESCE((SELECT group_concat('t' || lower(hex(et."tagId")), ' ') FROM "EntryTag" et WHERE et."entryId" = new."entryId"), ''));
END;
CREATE TRIGGER "EntrySearch_ad" AFTER DELETE ON "EntrySearch" BEGIN
    DELETE FROM "EntrySearchFts" WHERE "rowid" = old."rowid";
END;
CREATE TRIGGER "EntrySearch_au" AFTER UPDATE OF "name", "body" ON "EntrySearch" BEGIN
    DELETE FROM "EntrySearchFts" WHERE "rowid" = old."rowid";
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens") VALUES (new."rowid", new."name", new."body",
        COALESCE((SELECT group_concat('t' || lower(hex(et."tagId")), ' ') FROM "EntryTag" et WHERE et."entryId" = new."entryId"), ''));
END;

-- A tag linked or unlinked: the entry's row of the index again (none yet: a new entry links its
-- tags before it writes its text).
CREATE TRIGGER "EntryTag_search_tokens_ai" AFTER INSERT ON "EntryTag" BEGIN
    DELETE FROM "EntrySearchFts" WHERE "rowid" = (SELECT s."rowid" FROM "EntrySearch" s WHERE s."entryId" = new."entryId");
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens")
    SELECT s."rowid", s."name", s."body",
           COALESCE((SELECT group_concat('t' || lower(hex(et."tagId")), ' ') FROM "EntryTag" et WHERE et."entryId" = new."entryId"), '')
    FROM "EntrySearch" s WHERE s."entryId" = new."entryId";
END;
CREATE TRIGGER "EntryTag_search_tokens_ad" AFTER DELETE ON "EntryTag" BEGIN
    DELETE FROM "EntrySearchFts" WHERE "rowid" = (SELECT s."rowid" FROM "EntrySearch" s WHERE s."entryId" = old."entryId");
    INSERT INTO "EntrySearchFts"("rowid", "name", "body", "tagTokens")
    SELECT s."rowid", s."name", s."body",
           COALESCE((SELECT group_concat('t' || lower(hex(et."tagId")), ' ') FROM "EntryTag" et WHERE et."entryId" = old."entryId"), '')
    FROM "EntrySearch" s WHERE s."entryId" = old."entryId";
END;
