'use strict';
// What `better-sqlite3` is for Engram and Prisma's SQLite adapter (package.json's overrides).
//
// better-sqlite3 12 wraps its objects in node::ObjectWrap, whose header code changed in Node
// 24.19: compiled against it, the addon aborts the process (`Assertion failed: (env) != nullptr`)
// when the garbage collector frees a statement with no context entered, at exit most often
// (nodejs/node#65446; measured here on Node 24.21: 3 of 23 exits with 5,000 live statements,
// and in a run of the test suite). better-sqlite3 13 is N-API and does not abort, but it needs
// Node 22 or later: on Node 20.20 it crashed on its first statement (SIGSEGV). Neither version
// serves every Node Engram runs on, so the Node in use picks one; their API is the same.
const major = Number(process.versions.node.split('.')[0]);
module.exports = require(major >= 22 ? 'better-sqlite3-v13' : 'better-sqlite3-v12');
