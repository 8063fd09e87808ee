-- The search documents split and fold words as SQLite's tokenizer does (unicode61,
-- remove_diacritics 2): PostgreSQL's 'simple' parser kept hosts, paths, emails, decimals and
-- hyphenated words as one word each ("api.example.com", "/usr/local/bin", "3.14"), so a search
-- for "example", "local" or "14" found them on SQLite only; and it kept accents, so "cafe" found
-- "café" on SQLite only. "search_text" drops a Latin letter's diacritics (decomposed, the marks
-- dropped, composed again: other scripts keep theirs, as on SQLite) and makes ASCII punctuation a
-- word break. The query's words are folded alike before they reach either database
-- (searchTerms in src/modules/search/memory-query.terms.ts). ASCII text skips the normalization
-- (a 24 KB body: ~0.8 ms when it is ASCII, ~5 ms when not; to_tsvector ~2 ms), which
-- needs a UTF8 database: elsewhere only the punctuation is a break.
CREATE FUNCTION "search_text"(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT AS $$
    SELECT regexp_replace(
        CASE WHEN getdatabaseencoding() <> 'UTF8' OR octet_length($1) = char_length($1) THEN $1
            ELSE normalize(regexp_replace(normalize($1, NFD), '(?<=[A-Za-z])[\u0300-\u036f]+', '', 'g'), NFC) END,
        '[!-/:-@\[-`{-~]+', ' ', 'g')
$$;

DROP INDEX "EntrySearch_document_idx";
ALTER TABLE "EntrySearch" DROP COLUMN "document";
ALTER TABLE "EntrySearch" ADD COLUMN "document" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, "search_text"("name")), 'A') || setweight(to_tsvector('simple'::regconfig, "search_text"("body")), 'B')
) STORED;
CREATE INDEX "EntrySearch_document_idx" ON "EntrySearch" USING GIN ("document");
