-- CreateTable
CREATE TABLE "Scope" (
    "id" TEXT NOT NULL,
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
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Scope_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Entry" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT,
    "priority" INTEGER,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "latestVersion" INTEGER NOT NULL DEFAULT 0,
    "currentVersionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EntryVersion" (
    "id" TEXT NOT NULL,
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
    "confidence" DOUBLE PRECISION,
    "validUntil" TIMESTAMP(3),
    "changeReason" TEXT,
    "conflictFlag" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,

    CONSTRAINT "EntryVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Tag" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "predefined" BOOLEAN NOT NULL DEFAULT false,
    "description" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Tag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EntryTag" (
    "entryId" TEXT NOT NULL,
    "tagId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EntryTag_pkey" PRIMARY KEY ("entryId","tagId")
);

-- CreateTable
CREATE TABLE "Relation" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "targetEntryId" TEXT,
    "targetScopeId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,

    CONSTRAINT "Relation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Conflict" (
    "id" TEXT NOT NULL,
    "entryId" TEXT NOT NULL,
    "versionAId" TEXT NOT NULL,
    "versionBId" TEXT NOT NULL,
    "detectedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved" BOOLEAN NOT NULL DEFAULT false,
    "resolution" TEXT,
    "resolvedAt" TIMESTAMP(3),
    "resolvedBy" TEXT,

    CONSTRAINT "Conflict_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "Scope" ADD CONSTRAINT "Scope_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Scope"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entry" ADD CONSTRAINT "Entry_scopeId_fkey" FOREIGN KEY ("scopeId") REFERENCES "Scope"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entry" ADD CONSTRAINT "Entry_currentVersionId_fkey" FOREIGN KEY ("currentVersionId") REFERENCES "EntryVersion"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "EntryVersion" ADD CONSTRAINT "EntryVersion_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EntryTag" ADD CONSTRAINT "EntryTag_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EntryTag" ADD CONSTRAINT "EntryTag_tagId_fkey" FOREIGN KEY ("tagId") REFERENCES "Tag"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Relation" ADD CONSTRAINT "Relation_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "Entry"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Relation" ADD CONSTRAINT "Relation_targetEntryId_fkey" FOREIGN KEY ("targetEntryId") REFERENCES "Entry"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Relation" ADD CONSTRAINT "Relation_targetScopeId_fkey" FOREIGN KEY ("targetScopeId") REFERENCES "Scope"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conflict" ADD CONSTRAINT "Conflict_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "Entry"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conflict" ADD CONSTRAINT "Conflict_versionAId_fkey" FOREIGN KEY ("versionAId") REFERENCES "EntryVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Conflict" ADD CONSTRAINT "Conflict_versionBId_fkey" FOREIGN KEY ("versionBId") REFERENCES "EntryVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Seed: the predefined tags every database starts with.
-- TIMESTAMP(3) holds UTC (as Prisma writes it) whatever the session time zone.
INSERT INTO "Tag" ("id", "name", "category", "predefined", "description", "createdAt") VALUES
    ('tag_python', 'python', 'LANGUAGE', TRUE, 'Python code, libraries and tooling', (now() AT TIME ZONE 'UTC')),
    ('tag_typescript', 'typescript', 'LANGUAGE', TRUE, 'TypeScript code and type definitions', (now() AT TIME ZONE 'UTC')),
    ('tag_javascript', 'javascript', 'LANGUAGE', TRUE, 'JavaScript code for Node.js and browsers', (now() AT TIME ZONE 'UTC')),
    ('tag_rust', 'rust', 'LANGUAGE', TRUE, 'Rust code, crates and tooling', (now() AT TIME ZONE 'UTC')),
    ('tag_go', 'go', 'LANGUAGE', TRUE, 'Go code, modules and tooling', (now() AT TIME ZONE 'UTC')),
    ('tag_java', 'java', 'LANGUAGE', TRUE, 'Java code and JVM tooling', (now() AT TIME ZONE 'UTC')),
    ('tag_sql', 'sql', 'LANGUAGE', TRUE, 'SQL queries, schemas and migrations', (now() AT TIME ZONE 'UTC')),
    ('tag_bash', 'bash', 'LANGUAGE', TRUE, 'Shell scripts and command lines', (now() AT TIME ZONE 'UTC')),
    ('tag_markdown', 'markdown', 'LANGUAGE', TRUE, 'Markdown documents and formatting', (now() AT TIME ZONE 'UTC')),
    ('tag_web', 'web', 'DOMAIN', TRUE, 'Web applications, browsers and HTTP', (now() AT TIME ZONE 'UTC')),
    ('tag_cli', 'cli', 'DOMAIN', TRUE, 'Command-line tools and their interfaces', (now() AT TIME ZONE 'UTC')),
    ('tag_api', 'api', 'DOMAIN', TRUE, 'API design, endpoints and contracts', (now() AT TIME ZONE 'UTC')),
    ('tag_database', 'database', 'DOMAIN', TRUE, 'Databases, data modelling and queries', (now() AT TIME ZONE 'UTC')),
    ('tag_ml', 'ml', 'DOMAIN', TRUE, 'Machine learning, models and data pipelines', (now() AT TIME ZONE 'UTC')),
    ('tag_devops', 'devops', 'DOMAIN', TRUE, 'Builds, deployment, CI/CD and infrastructure', (now() AT TIME ZONE 'UTC')),
    ('tag_security', 'security', 'DOMAIN', TRUE, 'Security, authentication and handling of secrets', (now() AT TIME ZONE 'UTC')),
    ('tag_testing', 'testing', 'DOMAIN', TRUE, 'Tests, test tooling and quality checks', (now() AT TIME ZONE 'UTC')),
    ('tag_documentation', 'documentation', 'DOMAIN', TRUE, 'Writing and maintaining documentation', (now() AT TIME ZONE 'UTC')),
    ('tag_code_style', 'code_style', 'CATEGORY', TRUE, 'Formatting, naming and code conventions', (now() AT TIME ZONE 'UTC')),
    ('tag_architecture', 'architecture', 'CATEGORY', TRUE, 'System structure, modules and design decisions', (now() AT TIME ZONE 'UTC')),
    ('tag_behavior', 'behavior', 'CATEGORY', TRUE, 'How an agent or a program should behave', (now() AT TIME ZONE 'UTC')),
    ('tag_performance', 'performance', 'CATEGORY', TRUE, 'Speed, memory use and efficiency', (now() AT TIME ZONE 'UTC')),
    ('tag_error_handling', 'error_handling', 'CATEGORY', TRUE, 'Errors, failures and recovery', (now() AT TIME ZONE 'UTC')),
    ('tag_logging', 'logging', 'CATEGORY', TRUE, 'Logging, tracing and observability', (now() AT TIME ZONE 'UTC')),
    ('tag_deprecated', 'deprecated', 'META', TRUE, 'Outdated: kept for reference, avoid in new work', (now() AT TIME ZONE 'UTC')),
    ('tag_experimental', 'experimental', 'META', TRUE, 'Not proven yet: use with care', (now() AT TIME ZONE 'UTC')),
    ('tag_stable', 'stable', 'META', TRUE, 'Proven and safe to rely on', (now() AT TIME ZONE 'UTC')),
    ('tag_required', 'required', 'META', TRUE, 'Must always be followed', (now() AT TIME ZONE 'UTC')),
    ('tag_optional', 'optional', 'META', TRUE, 'Recommended but not mandatory', (now() AT TIME ZONE 'UTC'));

-- Seed: the single global scope, root of the scope tree.
INSERT INTO "Scope" ("id", "kind", "parentId", "name", "description", "createdAt", "updatedAt") VALUES
    ('global', 'GLOBAL', NULL, 'global', 'Applies everywhere', (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC'));
