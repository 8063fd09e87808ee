-- AlterTable
ALTER TABLE "Scope" ADD COLUMN     "secretPolicy" TEXT;
