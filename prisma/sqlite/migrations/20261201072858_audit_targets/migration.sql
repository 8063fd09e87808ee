-- CreateTable
CREATE TABLE "AuditTarget" (
    "targetId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("targetId", "eventId"),
    CONSTRAINT "AuditTarget_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "AuditEvent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AuditTarget_targetId_createdAt_eventId_idx" ON "AuditTarget"("targetId", "createdAt", "eventId");

-- Each id of an event's targetIds, one row each with the event's time, written with the event (by
-- whichever code inserts it), and those of the events already there.
INSERT OR IGNORE INTO "AuditTarget" ("targetId", "eventId", "createdAt")
    SELECT j."value", e."id", e."createdAt" FROM "AuditEvent" e, json_each(e."targetIds") j WHERE j."type" = 'text';

CREATE TRIGGER "AuditEvent_targets_ai" AFTER INSERT ON "AuditEvent" BEGIN
    INSERT OR IGNORE INTO "AuditTarget" ("targetId", "eventId", "createdAt")
        SELECT j."value", NEW."id", NEW."createdAt" FROM json_each(NEW."targetIds") j WHERE j."type" = 'text';
END;
