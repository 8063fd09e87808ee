-- CreateTable
CREATE TABLE "SessionEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "content" TEXT,
    "stateDelta" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SessionEvent_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Scope" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "StateKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "namespace" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "value" TEXT,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "updatedBy" TEXT
);

-- CreateTable
CREATE TABLE "StateVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "keyId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "value" TEXT,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "restoredFrom" INTEGER,
    "eventId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    CONSTRAINT "StateVersion_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "StateKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StateVersion_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "SessionEvent" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Conversation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scopeId" TEXT NOT NULL,
    "title" TEXT,
    "metadata" JSONB,
    "messageCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Conversation_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ConversationMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "conversationId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "toolsUsed" JSONB,
    "metadata" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ConversationMessage_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ConversationContext" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "conversationId" TEXT NOT NULL,
    "messageId" TEXT,
    "messageKey" TEXT NOT NULL DEFAULT '',
    "entryId" TEXT NOT NULL,
    "score" REAL,
    "source" TEXT NOT NULL,
    "linkedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ConversationContext_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ConversationContext_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "ConversationMessage" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ConversationContext_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scopeId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "parentId" TEXT,
    "assignee" TEXT,
    "dueAt" DATETIME,
    "completedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Task_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Task_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Task" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TaskDependency" (
    "taskId" TEXT NOT NULL,
    "dependsOnId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("taskId", "dependsOnId"),
    CONSTRAINT "TaskDependency_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TaskDependency_dependsOnId_fkey" FOREIGN KEY ("dependsOnId") REFERENCES "Task" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Scope" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "parentId" TEXT,
    "name" TEXT,
    "description" TEXT,
    "metadata" JSONB,
    "rootPath" TEXT,
    "purpose" TEXT,
    "agentId" TEXT,
    "status" TEXT,
    "mode" TEXT,
    "userId" TEXT,
    "appName" TEXT,
    "autoPromote" BOOLEAN NOT NULL DEFAULT false,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    "turn" INTEGER NOT NULL DEFAULT 1,
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "archivedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Scope_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Scope" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Scope" ("agentId", "createdAt", "description", "endedAt", "id", "kind", "metadata", "mode", "name", "parentId", "purpose", "rootPath", "startedAt", "status", "updatedAt") SELECT "agentId", "createdAt", "description", "endedAt", "id", "kind", "metadata", "mode", "name", "parentId", "purpose", "rootPath", "startedAt", "status", "updatedAt" FROM "Scope";
DROP TABLE "Scope";
ALTER TABLE "new_Scope" RENAME TO "Scope";
CREATE INDEX "Scope_kind_status_idx" ON "Scope"("kind", "status");
CREATE UNIQUE INDEX "Scope_parentId_name_key" ON "Scope"("parentId", "name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "SessionEvent_sessionId_type_sequence_idx" ON "SessionEvent"("sessionId", "type", "sequence");

-- CreateIndex
CREATE INDEX "SessionEvent_sessionId_actor_sequence_idx" ON "SessionEvent"("sessionId", "actor", "sequence");

-- CreateIndex
CREATE INDEX "SessionEvent_sessionId_createdAt_idx" ON "SessionEvent"("sessionId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SessionEvent_sessionId_sequence_key" ON "SessionEvent"("sessionId", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "StateKey_namespace_owner_name_key" ON "StateKey"("namespace", "owner", "name");

-- CreateIndex
CREATE INDEX "StateVersion_eventId_idx" ON "StateVersion"("eventId");

-- CreateIndex
CREATE UNIQUE INDEX "StateVersion_keyId_version_key" ON "StateVersion"("keyId", "version");

-- CreateIndex
CREATE INDEX "Conversation_scopeId_id_idx" ON "Conversation"("scopeId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationMessage_conversationId_position_key" ON "ConversationMessage"("conversationId", "position");

-- CreateIndex
CREATE INDEX "ConversationContext_messageId_idx" ON "ConversationContext"("messageId");

-- CreateIndex
CREATE INDEX "ConversationContext_entryId_idx" ON "ConversationContext"("entryId");

-- CreateIndex
CREATE UNIQUE INDEX "ConversationContext_conversationId_messageKey_entryId_key" ON "ConversationContext"("conversationId", "messageKey", "entryId");

-- CreateIndex
CREATE INDEX "Task_scopeId_status_idx" ON "Task"("scopeId", "status");

-- CreateIndex
CREATE INDEX "Task_parentId_idx" ON "Task"("parentId");

-- CreateIndex
CREATE INDEX "Task_assignee_status_idx" ON "Task"("assignee", "status");

-- CreateIndex
CREATE INDEX "TaskDependency_dependsOnId_idx" ON "TaskDependency"("dependsOnId");
