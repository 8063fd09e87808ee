-- CreateTable
CREATE TABLE "VoteQuestion" (
    "id" TEXT NOT NULL,
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
    "decidedAt" TIMESTAMP(3),
    "countedVotes" INTEGER NOT NULL DEFAULT 0,
    "discardedVotes" INTEGER NOT NULL DEFAULT 0,
    "decidedMargin" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,

    CONSTRAINT "VoteQuestion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Vote" (
    "id" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "voter" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "normalized" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION,
    "discardReason" TEXT,
    "castAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Vote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VoteTally" (
    "questionId" TEXT NOT NULL,
    "normalized" TEXT NOT NULL,
    "votes" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "VoteTally_pkey" PRIMARY KEY ("questionId","normalized")
);

-- CreateTable
CREATE TABLE "FlaggedAgent" (
    "scopeId" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "reason" TEXT,
    "flaggedBy" TEXT,
    "flaggedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FlaggedAgent_pkey" PRIMARY KEY ("scopeId","agent")
);

-- CreateTable
CREATE TABLE "Outcome" (
    "id" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "taskId" TEXT,
    "subtaskType" TEXT NOT NULL,
    "itemKey" TEXT,
    "agent" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "errorKind" TEXT,
    "durationMs" INTEGER NOT NULL,
    "tokens" INTEGER,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "recordedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "recordedBy" TEXT,

    CONSTRAINT "Outcome_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Change" (
    "seq" BIGINT NOT NULL,
    "topic" TEXT NOT NULL,
    "keys" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Change_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "ChangeFeedHead" (
    "id" INTEGER NOT NULL,
    "seq" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "ChangeFeedHead_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "VoteQuestion" ADD CONSTRAINT "VoteQuestion_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Vote" ADD CONSTRAINT "Vote_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "VoteQuestion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VoteTally" ADD CONSTRAINT "VoteTally_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "VoteQuestion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlaggedAgent" ADD CONSTRAINT "FlaggedAgent_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Outcome" ADD CONSTRAINT "Outcome_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The change feed's head: one row, taken by every write that records changes.
INSERT INTO "ChangeFeedHead" ("id", "seq") VALUES (1, 0);
