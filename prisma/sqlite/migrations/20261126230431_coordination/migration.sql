-- CreateTable
CREATE TABLE "VoteQuestion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scopeId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "taskId" TEXT,
    "prompt" TEXT,
    "k" INTEGER NOT NULL,
    "normalization" TEXT NOT NULL,
    "maxAnswerLength" INTEGER,
    "answerPattern" TEXT,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "decidedAnswer" TEXT,
    "decidedVoteId" TEXT,
    "decidedAt" DATETIME,
    "countedVotes" INTEGER NOT NULL DEFAULT 0,
    "discardedVotes" INTEGER NOT NULL DEFAULT 0,
    "decidedMargin" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    CONSTRAINT "VoteQuestion_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Vote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "questionId" TEXT NOT NULL,
    "voter" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "normalized" TEXT NOT NULL,
    "confidence" REAL,
    "discardReason" TEXT,
    "castAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Vote_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "VoteQuestion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "VoteTally" (
    "questionId" TEXT NOT NULL,
    "normalized" TEXT NOT NULL,
    "votes" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("questionId", "normalized"),
    CONSTRAINT "VoteTally_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "VoteQuestion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FlaggedAgent" (
    "scopeId" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "reason" TEXT,
    "flaggedBy" TEXT,
    "flaggedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("scopeId", "agent"),
    CONSTRAINT "FlaggedAgent_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Outcome" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scopeId" TEXT NOT NULL,
    "taskId" TEXT,
    "subtaskType" TEXT NOT NULL,
    "itemKey" TEXT,
    "agent" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "errorKind" TEXT,
    "durationMs" INTEGER NOT NULL,
    "tokens" INTEGER,
    "occurredAt" DATETIME NOT NULL,
    "recordedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "recordedBy" TEXT,
    CONSTRAINT "Outcome_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Change" (
    "seq" BIGINT NOT NULL PRIMARY KEY,
    "topic" TEXT NOT NULL,
    "keys" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "occurredAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ChangeFeedHead" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "seq" BIGINT NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "VoteQuestion_scopeId_status_createdAt_idx" ON "VoteQuestion"("scopeId", "status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "VoteQuestion_scopeId_key_key" ON "VoteQuestion"("scopeId", "key");

-- CreateIndex
CREATE INDEX "Vote_questionId_castAt_idx" ON "Vote"("questionId", "castAt");

-- CreateIndex
CREATE INDEX "Vote_voter_castAt_idx" ON "Vote"("voter", "castAt");

-- CreateIndex
CREATE INDEX "Outcome_scopeId_occurredAt_idx" ON "Outcome"("scopeId", "occurredAt");

-- CreateIndex
CREATE INDEX "Outcome_scopeId_subtaskType_occurredAt_idx" ON "Outcome"("scopeId", "subtaskType", "occurredAt");

-- CreateIndex
CREATE INDEX "Outcome_scopeId_agent_occurredAt_idx" ON "Outcome"("scopeId", "agent", "occurredAt");

-- CreateIndex
CREATE INDEX "Outcome_scopeId_itemKey_idx" ON "Outcome"("scopeId", "itemKey");

-- CreateIndex
CREATE INDEX "Change_occurredAt_idx" ON "Change"("occurredAt");

-- The change feed's head: one row, taken by every write that records changes.
INSERT INTO "ChangeFeedHead" ("id", "seq") VALUES (1, 0);
