-- AlterTable
ALTER TABLE "MemoryPolicy" ADD COLUMN "halfLifeHours" INTEGER;
