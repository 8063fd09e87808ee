/*
** engram_bm25: SQLite FTS5's bm25() for the first N phrases of a query only.
**
** Why it exists. A memoryQuery with tags and words asks the full-text index for "the words AND the
** tag tokens" (tagTokens, a column ranked with weight 0), so that FTS5 intersects the postings
** itself. FTS5's bm25() then counts, once per statement, every document of every phrase of the
** query for its IDF, the tag tokens' too, although a phrase of a column weighted 0 adds exactly 0
** to every score. At 1M entries one tag has ~97,000 postings: counting them was ~4-5 ms of a 1M
** tag + word statement of ~10 ms (measured 2026-12-04; the match alone took 1.3 ms). bm25() takes no
** option to skip a phrase, so this function is bm25() with that one difference: it counts and
** scores the first N phrases (the words, which come first in the query) and leaves the rest out.
** For phrases that only occur in 0-weighted columns the result is bit for bit bm25()'s: the same
** sums in the same order, less terms that were +0.0 (test/fts5-rank.test.ts compares them).
**
**   engram_bm25(fts_table, N, weight_of_column_0, weight_of_column_1, ...)
**
** engram_top: the same rank, but only where it can be among the statement's K best.
**
**   engram_top(fts_table, N, K, exact, weight_of_column_0, ...)
**
** returns engram_bm25's value for a row whose rank may be among the K best of the statement, and
** for every row where `exact` is true; NULL for the others. Why: most of BM25's cost per match is
** reading the document's length (FTS5 looks it up in the index's _docsize table: at 1M entries
** ~0.5-1 us a match, ~12 of a two-word `context` statement's ~30 ms, 14,000 matches), and a query
** that needs the best few of its matches need not read the lengths of the others. Each row's
** score is first bounded with the shortest length the row can have (its most frequent phrase's
** instances): BM25 only grows as the length shrinks, and so does each step of its computation in
** floating point (monotone operations on positive values), so the bound is never below the score.
** A row whose bound is below the K-th best score computed so far in the statement is left out:
** that K-th best is at most the statement's true K-th best (a subset's K-th best is at most the
** whole set's), so no row of the true K best is ever left out, and every row left out ranks no
** higher than the K-th best of those returned.
**
**   engram_above(fts_table, N, floor, weight_of_column_0, ...)
**
** the same with a fixed floor instead of the K-th best: the rank of a row whose bound reaches
** `floor` (every row where it is NULL), else NULL; a row left out ranks below the floor.
**
** N may instead be the phrases' document counts, as text ("7156 7186": one whole number per phrase,
** the first phrases of the query in order, N being how many): each function then takes its IDFs from
** them instead of counting each phrase's documents itself, which it does once per statement and
** full-text read (xQueryPhrase over every document of each phrase). A statement that reads the
** index several times for the same words (memory-query.speculation.ts: the best hits, then each
** scope's) counts them once in SQL and hands the counts to each read: at 1M entries a two-word
** task's counting was ~0.9 ms a read. The counts must be what xQueryPhrase would count, i.e. the
** documents that match each phrase alone with its column filter, in the statement's snapshot.
**
** Loaded into every SQLite connection that ranks (src/infra/sqlite-rank-extension.ts); where it
** cannot be built or loaded, queries use bm25() (the same scores, slower).
*/
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1
#include <math.h>
#include <string.h>

/* Per statement (FTS5 auxiliary data): the IDFs of the scored phrases and a scratch array. */
typedef struct {
  int nScored;
  double avgdl;
  double *aIDF;
  double *aFreq;
  int *aCount;
  /* engram_top: the K best scores so far (a min-heap, nBest <= nTop = K). */
  int nTop, nBest;
  double *aBest;
} RankData;

static int countRow(const Fts5ExtensionApi *api, Fts5Context *fts, void *user) {
  (void)api;
  (void)fts;
  (*(sqlite3_int64 *)user)++;
  return SQLITE_OK;
}

/*
** The phrases' document counts of a text N ("7156 7186") into counts (room for max), how many in
** *n; SQLITE_MISMATCH for anything but whole numbers and spaces, or more than max of them.
*/
static int parseCounts(const unsigned char *text, sqlite3_int64 *counts, int max, int *n) {
  *n = 0;
  if (text == 0) return SQLITE_NOMEM; /* a text value SQLite could not give as text */
  while (*text) {
    if (*text == ' ') {
      text++;
      continue;
    }
    if (*text < '0' || *text > '9' || *n == max) return SQLITE_MISMATCH;
    sqlite3_int64 v = 0;
    while (*text >= '0' && *text <= '9') {
      if (v > (sqlite3_int64)1 << 50) return SQLITE_MISMATCH;
      v = v * 10 + (*text++ - '0');
    }
    counts[(*n)++] = v;
  }
  return SQLITE_OK;
}

/* Most phrases a query of counts names (a search has at most 16 words). */
#define MAX_COUNTED 64

/*
** As FTS5's fts5Bm25GetData, for the first phrases that `phrases` names (their number, or their
** document counts as text: see the head of this file); room for engram_top's nTop best scores.
*/
static int rankData(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_value *phrases, int nTop, RankData **out) {
  RankData *p = (RankData *)api->xGetAuxdata(fts, 0);
  int rc = SQLITE_OK;
  if (p == 0) {
    sqlite3_int64 counts[MAX_COUNTED];
    int nScored = 0, counted = sqlite3_value_type(phrases) == SQLITE_TEXT;
    if (counted) {
      rc = parseCounts(sqlite3_value_text(phrases), counts, MAX_COUNTED, &nScored);
      if (rc != SQLITE_OK) return rc;
    } else {
      nScored = sqlite3_value_int(phrases);
    }
    int nPhrase = api->xPhraseCount(fts);
    sqlite3_int64 nRow = 0, nToken = 0;
    if (nScored > nPhrase) nScored = nPhrase;
    if (nScored < 0) nScored = 0;
    if (nTop < 0) nTop = 0;
    sqlite3_int64 size = sizeof(RankData) + sizeof(double) * (2 * (nScored + 1) + nTop) + sizeof(int) * (nScored + 1);
    p = (RankData *)sqlite3_malloc64(size);
    if (p == 0) return SQLITE_NOMEM;
    memset(p, 0, size);
    p->nScored = nScored;
    p->nTop = nTop;
    p->aIDF = (double *)&p[1];
    p->aFreq = &p->aIDF[nScored + 1];
    p->aBest = &p->aFreq[nScored + 1];
    p->aCount = (int *)&p->aBest[nTop];
    rc = api->xRowCount(fts, &nRow);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &nToken);
    if (rc == SQLITE_OK) p->avgdl = (double)nToken / (double)nRow;
    for (int i = 0; rc == SQLITE_OK && i < nScored; i++) {
      sqlite3_int64 nHit = counted ? counts[i] : 0;
      if (!counted) rc = api->xQueryPhrase(fts, i, (void *)&nHit, countRow);
      if (rc == SQLITE_OK) {
        double idf = log((nRow - nHit + 0.5) / (nHit + 0.5));
        p->aIDF[i] = idf <= 0.0 ? 1e-6 : idf;
      }
    }
    if (rc != SQLITE_OK) {
      sqlite3_free(p);
      return rc;
    }
    rc = api->xSetAuxdata(fts, p, sqlite3_free);
    if (rc != SQLITE_OK) return rc;
  }
  *out = p;
  return rc;
}

/*
** The weighted frequency of each scored phrase in the current row (as FTS5's fts5Bm25Function
** counts them: one instance at a time, in the order xInst gives them), and the most instances of
** any one scored phrase (`most`: the row holds at least that many tokens).
*/
static int phraseFrequencies(const Fts5ExtensionApi *api, Fts5Context *fts, RankData *p, sqlite3_value **weights, int nWeights, int *most) {
  int nInst = 0, rc = api->xInstCount(fts, &nInst);
  memset(p->aFreq, 0, sizeof(double) * p->nScored);
  memset(p->aCount, 0, sizeof(int) * p->nScored);
  *most = 0;
  for (int i = 0; rc == SQLITE_OK && i < nInst; i++) {
    int phrase, column, offset;
    rc = api->xInst(fts, i, &phrase, &column, &offset);
    if (rc != SQLITE_OK || phrase >= p->nScored) continue;
    p->aFreq[phrase] += (nWeights > column) ? sqlite3_value_double(weights[column]) : 1.0;
    if (++p->aCount[phrase] > *most) *most = p->aCount[phrase];
  }
  return rc;
}

/* BM25 of the current row's frequencies for a document of D tokens: as FTS5's bm25(), term by term in order. */
static double scoreOf(const RankData *p, double D) {
  const double k1 = 1.2, b = 0.75;
  double score = 0.0;
  for (int i = 0; i < p->nScored; i++) {
    score += p->aIDF[i] * ((p->aFreq[i] * (k1 + 1.0)) / (p->aFreq[i] + k1 * (1 - b + b * D / p->avgdl)));
  }
  return score;
}

/*
** The current row's RankData and frequencies (the first phrases `phrases` names, weights from `weights`),
** with room for nTop best scores; 0 after reporting an error to ctx.
*/
static RankData *rowData(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, sqlite3_value *phrases, int nTop, sqlite3_value **weights, int nWeights, int *most) {
  RankData *p = 0;
  int rc = rankData(api, fts, phrases, nTop, &p);
  if (rc == SQLITE_OK) rc = phraseFrequencies(api, fts, p, weights, nWeights, most);
  if (rc == SQLITE_OK) return p;
  sqlite3_result_error_code(ctx, rc);
  return 0;
}

/*
** The row's rank as its result, its score in *score, and 1; or, where `bounded` and its score with
** its shortest possible length (`most` tokens) is below `floor`, NULL and 0 (its length is never
** read); -1 after reporting an error.
*/
static int rankReaching(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, const RankData *p, int most, int bounded, double floor, double *score) {
  int nTok = 0;
  if (bounded && scoreOf(p, (double)most) < floor) {
    sqlite3_result_null(ctx);
    return 0;
  }
  int rc = api->xColumnSize(fts, -1, &nTok);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return -1;
  }
  *score = scoreOf(p, (double)nTok);
  sqlite3_result_double(ctx, -1.0 * *score);
  return 1;
}

/* engram_bm25(fts, N, weights...): bm25() of the first N phrases. */
static void engramBm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal, sqlite3_value **apVal) {
  int most = 0;
  double score;
  if (nVal < 1) {
    sqlite3_result_error(ctx, "engram_bm25: the number of phrases to score is required", -1);
    return;
  }
  RankData *p = rowData(api, fts, ctx, apVal[0], 0, &apVal[1], nVal - 1, &most);
  if (p) rankReaching(api, fts, ctx, p, most, 0, 0.0, &score);
}

/* Adds `score` to the statement's K best (a min-heap of p->nTop scores, p->nBest of them so far). */
static void keepBest(RankData *p, double score) {
  double *h = p->aBest;
  int i;
  if (p->nBest < p->nTop) {
    for (i = p->nBest++; i > 0 && h[(i - 1) / 2] > score; i = (i - 1) / 2) h[i] = h[(i - 1) / 2];
    h[i] = score;
    return;
  }
  if (score <= h[0]) return;
  for (i = 0;;) {
    int c = 2 * i + 1;
    if (c >= p->nTop) break;
    if (c + 1 < p->nTop && h[c + 1] < h[c]) c++;
    if (h[c] >= score) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = score;
}

/* engram_top(fts, N, K, exact, weights...): engram_bm25 where the row may be among the K best (or `exact`), else NULL. */
static void engramTop(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal, sqlite3_value **apVal) {
  int most = 0;
  double score;
  if (nVal < 3 || sqlite3_value_int(apVal[1]) < 1) {
    sqlite3_result_error(ctx, "engram_top: the number of phrases to score, K >= 1 and whether to rank exactly are required", -1);
    return;
  }
  RankData *p = rowData(api, fts, ctx, apVal[0], sqlite3_value_int(apVal[1]), &apVal[3], nVal - 3, &most);
  if (!p) return;
  /* Bounded once the heap holds K scores: its least is the K-th best so far. */
  int bounded = !sqlite3_value_int(apVal[2]) && p->nBest == p->nTop;
  if (rankReaching(api, fts, ctx, p, most, bounded, p->aBest[0], &score) == 1) keepBest(p, score);
}

/* engram_above(fts, N, floor, weights...): engram_bm25 where the row's rank can reach `floor` (a NULL floor: every row), else NULL. */
static void engramAbove(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal, sqlite3_value **apVal) {
  int most = 0;
  double score;
  if (nVal < 2) {
    sqlite3_result_error(ctx, "engram_above: the number of phrases to score and the floor are required", -1);
    return;
  }
  RankData *p = rowData(api, fts, ctx, apVal[0], 0, &apVal[2], nVal - 2, &most);
  if (p) rankReaching(api, fts, ctx, p, most, sqlite3_value_type(apVal[1]) != SQLITE_NULL, sqlite3_value_double(apVal[1]), &score);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_fts5rank_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  SQLITE_EXTENSION_INIT2(pApi);
  fts5_api *fts = 0;
  sqlite3_stmt *stmt = 0;
  int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, 0);
  if (rc == SQLITE_OK) {
    sqlite3_bind_pointer(stmt, 1, (void *)&fts, "fts5_api_ptr", 0);
    sqlite3_step(stmt);
    rc = sqlite3_finalize(stmt);
  }
  if (rc != SQLITE_OK || fts == 0 || fts->iVersion < 2) {
    *pzErrMsg = sqlite3_mprintf("engram_bm25: this SQLite has no FTS5");
    return SQLITE_ERROR;
  }
  rc = fts->xCreateFunction(fts, "engram_bm25", 0, engramBm25, 0);
  if (rc == SQLITE_OK) rc = fts->xCreateFunction(fts, "engram_top", 0, engramTop, 0);
  if (rc == SQLITE_OK) rc = fts->xCreateFunction(fts, "engram_above", 0, engramAbove, 0);
  return rc;
}
