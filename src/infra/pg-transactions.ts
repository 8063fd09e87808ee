import type { IsolationLevel, SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { Lock } from './lock.ts';

/**
 * Sends the statements of each interactive transaction to PostgreSQL one at a time.
 *
 * Prisma's query interpreter (7.10) reads the relations of an `include` side by side
 * (`Promise.all`). Inside an interactive transaction they all go to the transaction's one pg
 * client, which queued them; pg 8.19 deprecated that queue ("Calling client.query() when the client
 * is already executing a query"), and pg 9 removes it, which would make those operations fail.
 * Reported upstream as prisma/prisma#29407, fix proposed in prisma/orm#29468, not released.
 * Hand-written until then: here each statement waits for the one before, in the order they were
 * sent, as pg's queue ran them. Statements outside transactions take a pooled connection each and
 * are left alone.
 */
export function oneStatementAtATime(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => withSerialTransactions(await factory.connect()),
  };
}

function withSerialTransactions(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    executeScript: (script) => adapter.executeScript(script),
    startTransaction: async (isolationLevel?: IsolationLevel) => serialTransaction(await adapter.startTransaction(isolationLevel)),
    getConnectionInfo: adapter.getConnectionInfo && (() => adapter.getConnectionInfo!()),
    dispose: () => adapter.dispose(),
  };
}

function serialTransaction(tx: Transaction): Transaction {
  const lock = new Lock();
  const inTurn = <T>(work: () => Promise<T>) => lock.run(work);
  return {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    queryRaw: (query: SqlQuery) => inTurn(() => tx.queryRaw(query)),
    executeRaw: (query: SqlQuery) => inTurn(() => tx.executeRaw(query)),
    commit: () => inTurn(() => tx.commit()),
    rollback: () => inTurn(() => tx.rollback()),
    createSavepoint: tx.createSavepoint && ((name: string) => inTurn(() => tx.createSavepoint!(name))),
    rollbackToSavepoint: tx.rollbackToSavepoint && ((name: string) => inTurn(() => tx.rollbackToSavepoint!(name))),
    releaseSavepoint: tx.releaseSavepoint && ((name: string) => inTurn(() => tx.releaseSavepoint!(name))),
  };
}
