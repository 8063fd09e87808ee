-- CreateTable
CREATE TABLE "AuditTarget" (
    "targetId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AuditTarget_pkey" PRIMARY KEY ("targetId","eventId")
);

-- CreateIndex
CREATE INDEX "AuditTarget_targetId_createdAt_eventId_idx" ON "AuditTarget"("targetId", "createdAt", "eventId");

-- AddForeignKey
ALTER TABLE "AuditTarget" ADD CONSTRAINT "AuditTarget_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "AuditEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each id of an event's targetIds, one row each with the event's time, written with the event (by
-- whichever code inserts it), and those of the events already there.
INSERT INTO "AuditTarget" ("targetId", "eventId", "createdAt")
    SELECT DISTINCT t, e."id", e."createdAt" FROM "AuditEvent" e, jsonb_array_elements_text(e."targetIds"::jsonb) t
    ON CONFLICT DO NOTHING;

CREATE FUNCTION "AuditEvent_targets"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "AuditTarget" ("targetId", "eventId", "createdAt")
        SELECT DISTINCT t, NEW."id", NEW."createdAt" FROM jsonb_array_elements_text(NEW."targetIds"::jsonb) t
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER "AuditEvent_targets_ai" AFTER INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION "AuditEvent_targets"();
