-- CreateTable
CREATE TABLE "Scope" (
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
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Scope_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Scope" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Entry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT,
    "priority" INTEGER,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "latestVersion" INTEGER NOT NULL DEFAULT 0,
    "currentVersionId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Entry_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Entry_currentVersionId_fkey" FOREIGN KEY ("currentVersionId") REFERENCES "EntryVersion" ("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);

-- CreateTable
CREATE TABLE "EntryVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "entryId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "description" TEXT,
    "parameters" JSONB,
    "constraints" TEXT,
    "examples" JSONB,
    "content" TEXT,
    "rationale" TEXT,
    "source" TEXT,
    "confidence" REAL,
    "validUntil" DATETIME,
    "changeReason" TEXT,
    "conflictFlag" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    CONSTRAINT "EntryVersion_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Tag" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "predefined" BOOLEAN NOT NULL DEFAULT false,
    "description" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "EntryTag" (
    "entryId" TEXT NOT NULL,
    "tagId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("entryId", "tagId"),
    CONSTRAINT "EntryTag_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "EntryTag_tagId_fkey" FOREIGN KEY ("tagId") REFERENCES "Tag" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Relation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "targetEntryId" TEXT,
    "targetScopeId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    CONSTRAINT "Relation_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "Entry" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Relation_targetEntryId_fkey" FOREIGN KEY ("targetEntryId") REFERENCES "Entry" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Relation_targetScopeId_fkey" FOREIGN KEY ("targetScopeId") REFERENCES "Scope" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Conflict" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "entryId" TEXT NOT NULL,
    "versionAId" TEXT NOT NULL,
    "versionBId" TEXT NOT NULL,
    "detectedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved" BOOLEAN NOT NULL DEFAULT false,
    "resolution" TEXT,
    "resolvedAt" DATETIME,
    "resolvedBy" TEXT,
    CONSTRAINT "Conflict_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Conflict_versionAId_fkey" FOREIGN KEY ("versionAId") REFERENCES "EntryVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Conflict_versionBId_fkey" FOREIGN KEY ("versionBId") REFERENCES "EntryVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Scope_kind_status_idx" ON "Scope"("kind", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Scope_parentId_name_key" ON "Scope"("parentId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Entry_currentVersionId_key" ON "Entry"("currentVersionId");

-- CreateIndex
CREATE INDEX "Entry_kind_active_scopeId_idx" ON "Entry"("kind", "active", "scopeId");

-- CreateIndex
CREATE INDEX "Entry_kind_category_idx" ON "Entry"("kind", "category");

-- CreateIndex
CREATE UNIQUE INDEX "Entry_scopeId_kind_name_key" ON "Entry"("scopeId", "kind", "name");

-- CreateIndex
CREATE UNIQUE INDEX "EntryVersion_entryId_version_key" ON "EntryVersion"("entryId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "Tag_name_key" ON "Tag"("name");

-- CreateIndex
CREATE INDEX "EntryTag_tagId_idx" ON "EntryTag"("tagId");

-- CreateIndex
CREATE INDEX "Relation_targetEntryId_idx" ON "Relation"("targetEntryId");

-- CreateIndex
CREATE INDEX "Relation_targetScopeId_idx" ON "Relation"("targetScopeId");

-- CreateIndex
CREATE UNIQUE INDEX "Relation_sourceId_targetEntryId_type_key" ON "Relation"("sourceId", "targetEntryId", "type");

-- CreateIndex
CREATE UNIQUE INDEX "Relation_sourceId_targetScopeId_type_key" ON "Relation"("sourceId", "targetScopeId", "type");

-- CreateIndex
CREATE INDEX "Conflict_entryId_resolved_idx" ON "Conflict"("entryId", "resolved");

-- CreateIndex
CREATE INDEX "Conflict_resolved_detectedAt_idx" ON "Conflict"("resolved", "detectedAt");

-- Seed: the predefined tags every database starts with.
-- SQLite stores what Prisma writes: booleans as 1/0 and DateTime as ISO-8601 text in the exact
-- format of the better-sqlite3 adapter (2026-01-31T12:00:00.000+00:00). CURRENT_TIMESTAMP
-- (2026-01-31 12:00:00) would read back as a Date but compares wrongly as text in range filters.
INSERT INTO "Tag" ("id", "name", "category", "predefined", "description", "createdAt") VALUES
    ('tag_python', 'python', 'LANGUAGE', 1, 'Python code, libraries and tooling', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_typescript', 'typescript', 'LANGUAGE', 1, 'TypeScript code and type definitions', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_javascript', 'javascript', 'LANGUAGE', 1, 'JavaScript code for Node.js and browsers', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_rust', 'rust', 'LANGUAGE', 1, 'Rust code, crates and tooling', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_go', 'go', 'LANGUAGE', 1, 'Go code, modules and tooling', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_java', 'java', 'LANGUAGE', 1, 'Java code and JVM tooling', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_sql', 'sql', 'LANGUAGE', 1, 'SQL queries, schemas and migrations', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_bash', 'bash', 'LANGUAGE', 1, 'Shell scripts and command lines', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_markdown', 'markdown', 'LANGUAGE', 1, 'Markdown documents and formatting', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_web', 'web', 'DOMAIN', 1, 'Web applications, browsers and HTTP', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_cli', 'cli', 'DOMAIN', 1, 'Command-line tools and their interfaces', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_api', 'api', 'DOMAIN', 1, 'API design, endpoints and contracts', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_database', 'database', 'DOMAIN', 1, 'Databases, data modelling and queries', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_ml', 'ml', 'DOMAIN', 1, 'Machine learning, models and data pipelines', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_devops', 'devops', 'DOMAIN', 1, 'Builds, deployment, CI/CD and infrastructure', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_security', 'security', 'DOMAIN', 1, 'Security, authentication and handling of secrets', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_testing', 'testing', 'DOMAIN', 1, 'Tests, test tooling and quality checks', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_documentation', 'documentation', 'DOMAIN', 1, 'Writing and maintaining documentation', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_code_style', 'code_style', 'CATEGORY', 1, 'Formatting, naming and code conventions', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_architecture', 'architecture', 'CATEGORY', 1, 'System structure, modules and design decisions', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_behavior', 'behavior', 'CATEGORY', 1, 'How an agent or a program should behave', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_performance', 'performance', 'CATEGORY', 1, 'Speed, memory use and efficiency', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_error_handling', 'error_handling', 'CATEGORY', 1, 'Errors, failures and recovery', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_logging', 'logging', 'CATEGORY', 1, 'Logging, tracing and observability', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_deprecated', 'deprecated', 'META', 1, 'Outdated: kept for reference, avoid in new work', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_experimental', 'experimental', 'META', 1, 'Not proven yet: use with care', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_stable', 'stable', 'META', 1, 'Proven and safe to rely on', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_required', 'required', 'META', 1, 'Must always be followed', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    ('tag_optional', 'optional', 'META', 1, 'Recommended but not mandatory', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'));

-- Seed: the single global scope, root of the scope tree.
INSERT INTO "Scope" ("id", "kind", "parentId", "name", "description", "createdAt", "updatedAt") VALUES
    ('global', 'GLOBAL', NULL, 'global', 'Applies everywhere', strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'));
