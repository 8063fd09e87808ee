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
} RankData;

static int countRow(const Fts5ExtensionApi *api, Fts5Context *fts, void *user) {
  (void)api;
  (void)fts;
  (*(sqlite3_int64 *)user)++;
  return SQLITE_OK;
}

/* As FTS5's fts5Bm25GetData, for the first nScored phrases. */
static int rankData(const Fts5ExtensionApi *api, Fts5Context *fts, int nScored, RankData **out) {
  RankData *p = (RankData *)api->xGetAuxdata(fts, 0);
  int rc = SQLITE_OK;
  if (p == 0) {
    int nPhrase = api->xPhraseCount(fts);
    sqlite3_int64 nRow = 0, nToken = 0;
    if (nScored > nPhrase) nScored = nPhrase;
    if (nScored < 0) nScored = 0;
    p = (RankData *)sqlite3_malloc64(sizeof(RankData) + sizeof(double) * 2 * (nScored + 1));
    if (p == 0) return SQLITE_NOMEM;
    memset(p, 0, sizeof(RankData) + sizeof(double) * 2 * (nScored + 1));
    p->nScored = nScored;
    p->aIDF = (double *)&p[1];
    p->aFreq = &p->aIDF[nScored + 1];
    rc = api->xRowCount(fts, &nRow);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &nToken);
    if (rc == SQLITE_OK) p->avgdl = (double)nToken / (double)nRow;
    for (int i = 0; rc == SQLITE_OK && i < nScored; i++) {
      sqlite3_int64 nHit = 0;
      rc = api->xQueryPhrase(fts, i, (void *)&nHit, countRow);
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

/* As FTS5's fts5Bm25Function: the weighted frequency of each scored phrase, then the sum. */
static void engramBm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal, sqlite3_value **apVal) {
  const double k1 = 1.2, b = 0.75;
  RankData *p = 0;
  int nInst = 0, nTok = 0;
  if (nVal < 1) {
    sqlite3_result_error(ctx, "engram_bm25: the number of phrases to score is required", -1);
    return;
  }
  int rc = rankData(api, fts, sqlite3_value_int(apVal[0]), &p);
  if (rc == SQLITE_OK) {
    memset(p->aFreq, 0, sizeof(double) * p->nScored);
    rc = api->xInstCount(fts, &nInst);
  }
  for (int i = 0; rc == SQLITE_OK && i < nInst; i++) {
    int phrase, column, offset;
    rc = api->xInst(fts, i, &phrase, &column, &offset);
    if (rc == SQLITE_OK && phrase < p->nScored) p->aFreq[phrase] += (nVal - 1 > column) ? sqlite3_value_double(apVal[column + 1]) : 1.0;
  }
  if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &nTok);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  double D = (double)nTok, score = 0.0;
  for (int i = 0; i < p->nScored; i++) {
    score += p->aIDF[i] * ((p->aFreq[i] * (k1 + 1.0)) / (p->aFreq[i] + k1 * (1 - b + b * D / p->avgdl)));
  }
  sqlite3_result_double(ctx, -1.0 * score);
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
  return fts->xCreateFunction(fts, "engram_bm25", 0, engramBm25, 0);
}
